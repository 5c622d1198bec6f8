// A libtorch c10d program, unchanged, built against an installed brasa: a HashStore and a one-rank
// Gloo group (libbrasa_distributed comes in through brasa::torch only because this program uses
// it).
#include <torch/torch.h>

#include <iostream>
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

int main() {
  auto store = c10::make_intrusive<c10d::HashStore>();
  auto options = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(10));
  options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, 0, 1, options);
  std::vector<torch::Tensor> tensors{torch::full({3}, 7.0)};
  pg->allreduce(tensors)->wait();
  std::cout << "dist: " << pg->getBackendName() << " sum " << tensors[0].sum().item<double>()
            << '\n';
  return 0;
}
