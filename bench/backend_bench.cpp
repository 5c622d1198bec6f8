// backend_bench <libbrasa_npu.so>: the cost of the backend extension point, in one run, as ratios
// to the CPU on the same work: a plugin's own kernel (npu add, through the aten-overload adapter),
// an op served by the CPU fallback (npu sub: copies to the CPU and back), and the main job's MLP
// training step (784-512-512-10, batch 64, cross_entropy, backward, AdamW) on the npu vs the CPU.
// Prints a markdown table; figures are medians of 7 repetitions.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <vector>

#include "brasa/backend.h"
#include "brasa/brasa.h"

using namespace brasa;

namespace {

double median_us(int inner, const std::function<void()>& f) {
  f();  // warm-up
  std::vector<double> t;
  for (int r = 0; r < 7; ++r) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < inner; ++i) f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                    .count() /
                inner);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Mlp {
  nn::Linear fc1{784, 512}, fc2{512, 512}, fc3{512, 10};
  std::vector<Tensor> parameters() {
    std::vector<Tensor> p;
    for (auto* m : {&fc1, &fc2, &fc3})
      for (auto& t : (*m)->parameters()) p.push_back(t);
    return p;
  }
  void to(Device d) {
    for (auto* m : {&fc1, &fc2, &fc3}) (*m)->to(d);
  }
  Tensor forward(const Tensor& x) {
    return fc3->forward(relu(fc2->forward(relu(fc1->forward(x)))));
  }
};

double mlp_step_us(Device device) {
  manual_seed(1);
  Mlp model;
  model.to(device);
  optim::AdamW opt(model.parameters(), optim::AdamWOptions(1e-3));
  Tensor x = randn({64, 784}).to(device), y = randint(0, 10, {64}).to(device);
  return median_us(5, [&] {
    opt.zero_grad(/*set_to_none=*/true);
    Tensor loss = nn::functional::cross_entropy(model.forward(x), y);
    loss.backward();
    opt.step();
  });
}

void row(const char* name, double cpu, double npu) {
  std::printf("| %s | %.2f | %.2f | %.2f |\n", name, cpu, npu, npu / cpu);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <libbrasa_npu.so>\n", argv[0]);
    return 2;
  }
  backend::load_backend(argv[1]);
  backend::set_fallback_mode(backend::FallbackMode::Silent);
  const Device npu("npu");
  std::printf("| workload | CPU µs | npu µs | npu / CPU |\n|---|---|---|---|\n");
  for (int64_t n : {int64_t(1), int64_t(1) << 20}) {
    Tensor a = randn({n}), b = randn({n});
    Tensor da = a.to(npu), db = b.to(npu);
    const int inner = n == 1 ? 20000 : 20;
    const std::string size = n == 1 ? "1" : "1M";
    row(("add_" + size + " (npu kernel)").c_str(), median_us(inner, [&] { (void)(a + b); }),
        median_us(inner, [&] { (void)(da + db); }));
    row(("sub_" + size + " (CPU fallback)").c_str(), median_us(inner, [&] { (void)(a - b); }),
        median_us(inner, [&] { (void)(da - db); }));
  }
  row("mlp_step_adamw (batch 64)", mlp_step_us(Device(kCPU)), mlp_step_us(npu));
  std::printf("\n");
  backend::print_fallback_report(std::cout);
  return 0;
}
