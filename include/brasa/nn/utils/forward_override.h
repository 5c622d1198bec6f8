#pragma once
// A replaceable forward for a module at the places that call it through nn::utils::call (the C++
// stand-in for PyTorch's forward hooks, which C++ modules do not have). A parallelism layer
// installs one (tensor parallel's sharded Linear, a fully_shard unit's gathered forward) and a
// model that calls its submodules as
//
//   x = brasa::nn::utils::call(qkv, x);   // instead of qkv(x)
//
// runs it; without an override, call() is the module's own forward. The override belongs to the
// module object: it goes when the module is destroyed, and a copy (clone) does not have it.

#include <functional>

#include "brasa/nn/module.h"

namespace brasa::nn::utils {

using ForwardOverride = std::function<Tensor(const Tensor&)>;

/// Makes `forward` what call(module, x) runs (replacing an earlier override); an empty function
/// removes it. The function must not own the module (capture a weak_ptr), or it keeps it alive.
BRASA_API void set_forward_override(const Module& module, ForwardOverride forward);
/// The override of `module`, or an empty function.
BRASA_API ForwardOverride forward_override(const Module& module);
/// Whether any module has an override (call()'s fast path).
BRASA_API bool any_forward_override();

/// Runs `module`'s override on `input`, or its forward. `module`: a ModuleHolder, a shared_ptr or
/// a pointer to a module with a one-tensor forward.
template <typename ModuleLike>
Tensor call(ModuleLike& module, const Tensor& input) {
  auto& impl = *module;
  if (any_forward_override()) {
    if (auto f = forward_override(impl)) return f(input);
  }
  return impl.forward(input);
}

}  // namespace brasa::nn::utils
