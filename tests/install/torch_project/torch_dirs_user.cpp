// Built with TORCH_INCLUDE_DIRS and TORCH_LIBRARY only.
#include <ATen/ATen.h>

#include <iostream>

int main() {
  at::Tensor t = at::mse_loss(at::ones({3}), at::zeros({3}), at::Reduction::Sum);
  std::cout << "torch dirs: mse " << t.item<double>() << '\n';
  return 0;
}
