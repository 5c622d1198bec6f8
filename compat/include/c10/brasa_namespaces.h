#pragma once
// Note [libtorch namespaces]
// libtorch spreads its API over c10::, at:: and torch::; brasa has one namespace. Each of the three
// nominates ::brasa, so torch::Tensor, at::Tensor and c10::ScalarType all name brasa's types, and a
// program that mixes the spellings (or says `using namespace torch; using namespace at;`) sees the
// same entities everywhere, without ambiguity. Names that exist only in libtorch's spelling
// (c10::irange, torch::kF32, TORCH_CHECK, ...) are declared by the compat header that libtorch
// declares them in.
//
// torch::nn is brasa::nn under a namespace alias, the same entity: after `using namespace torch;`
// (how pytorch/examples' dcgan and many programs start), `nn::Module` must not be ambiguous between
// torch::nn and the brasa::nn that torch nominates. An alias cannot be reopened, so a program that
// adds its own names with `namespace torch { namespace nn {` (libtorch's any.cpp does) defines
// BRASA_REOPENABLE_TORCH_NN before its first include: torch::nn is then a namespace of its own
// nominating brasa::nn (reopenable, and `torch::nn::Linear` still works after), at the price of
// that ambiguity. C++ cannot have both: two different namespaces found under one name are
// ambiguous.

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
#ifdef BRASA_REOPENABLE_TORCH_NN
namespace nn {
using namespace ::brasa::nn;  // NOLINT
}  // namespace nn
#else
namespace nn = ::brasa::nn;
#endif
}  // namespace torch
