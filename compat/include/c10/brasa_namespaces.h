#pragma once
// Note [libtorch namespaces]
// libtorch spreads its API over c10::, at:: and torch::; brasa has one namespace. Each of the three
// nominates ::brasa, so torch::Tensor, at::Tensor and c10::ScalarType all name brasa's types, and a
// program that mixes the spellings (or says `using namespace torch; using namespace at;`) sees the
// same entities everywhere, without ambiguity. Names that exist only in libtorch's spelling
// (c10::irange, torch::kF32, TORCH_CHECK, ...) are declared by the compat header that libtorch
// declares them in.
//
// torch::nn is a namespace of its own that nominates brasa::nn, not just brasa::nn seen through
// torch: a program may reopen `namespace torch { namespace nn {` to add helpers (libtorch's own
// tests do), and that must extend the namespace the rest of the program calls torch::nn, not
// declare a new torch::nn that hides brasa's modules from later `torch::nn::Linear`s.

namespace brasa {}
namespace c10 {
using namespace ::brasa;  // NOLINT
}
namespace at {
using namespace ::brasa;  // NOLINT
}
namespace brasa::nn {}
namespace torch {
using namespace ::brasa;  // NOLINT
namespace nn {
using namespace ::brasa::nn;  // NOLINT
}  // namespace nn
}  // namespace torch
