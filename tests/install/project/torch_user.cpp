// A libtorch program, unchanged, built against an installed brasa's compat headers.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::Tensor a = torch::ones({2, 3});
  torch::Tensor b = torch::full({3}, 2.5, torch::TensorOptions().dtype(torch::kFloat64));
  torch::Tensor c = (a + b) * 2;
  TORCH_CHECK(c.sizes() == c10::IntArrayRef({2, 3}), "unexpected shape ", c.sizes());
  double sum = AT_DISPATCH_FLOATING_TYPES(c.scalar_type(), "sum", [&] {
    double s = 0;
    for (int64_t i = 0; i < c.numel(); ++i) s += c.data_ptr<scalar_t>()[i];
    return s;
  });
  std::cout << "torch: sum " << sum << " dtype " << c.scalar_type() << '\n';
  return 0;
}
