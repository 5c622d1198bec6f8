// A libtorch-style program that loads a backend library (argv[1]) and computes on its device
// through the accelerator API, never naming the device type.
#include <ATen/DeviceAccelerator.h>
#include <brasa/backend.h>
#include <torch/torch.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  brasa::backend::load_backend(argv[1]);
  auto type = at::accelerator::getAccelerator(true).value();
  torch::Device device(type, 0);
  torch::Tensor w = torch::ones({3, 2}).to(device).requires_grad_(true);
  torch::Tensor loss = torch::relu(torch::full({4, 3}, 2.0).to(device).mm(w)).sum();
  loss.backward();
  std::cout << "backend: " << device << " loss " << loss.item<double>() << " grad "
            << w.grad().sum().item<double>() << '\n';
  brasa::backend::print_fallback_report(std::cout);
  return 0;
}
