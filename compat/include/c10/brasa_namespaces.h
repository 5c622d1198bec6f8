#pragma once
// Note [libtorch namespaces]
// libtorch spreads its API over c10::, at:: and torch::; brasa has one namespace. Each of the three
// nominates ::brasa, so torch::Tensor, at::Tensor and c10::ScalarType all name brasa's types, and a
// program that mixes the spellings (or says `using namespace torch; using namespace at;`) sees the
// same entities everywhere, without ambiguity. Names that exist only in libtorch's spelling
// (c10::irange, torch::kF32, TORCH_CHECK, ...) are declared by the compat header that libtorch
// declares them in.

namespace brasa {}
namespace c10 {
using namespace ::brasa;  // NOLINT
}
namespace at {
using namespace ::brasa;  // NOLINT
}
namespace torch {
using namespace ::brasa;  // NOLINT
}
