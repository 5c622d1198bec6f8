#pragma once
// Kernels registered by aten names and signatures (libtorch's TORCH_LIBRARY_IMPL spelling, see
// <torch/library.h>). An aten overload ("add.Tensor", "add_.Tensor", "add.out", "mm") serves the
// calls of one brasa op that it covers: brasa's `add(self, other, alpha, out)` is add.Tensor when
// out is undefined, add_.Tensor when out is self, add.out otherwise. A call that no registered
// overload covers goes to the key's fallback (the CPU fallback for PrivateUse1).

#include <string>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::backend {

/// Runs a kernel `fn` (a function pointer erased to void*) on a stack in aten argument order and
/// leaves its results on the stack.
using AtenCall = void (*)(void* fn, Stack& stack);

/// Registers `fn` for the aten overload `aten_name` ("add.Tensor"; an "aten::" prefix is allowed)
/// at `key`. `signature` is the kernel's type in the notation of aten_signature() (for example
/// "Tensor(Tensor, Tensor, Scalar)"). Throws ValueError for an unknown name, a signature that is
/// not the overload's, or a second kernel for the same overload and key.
BRASA_API void register_aten_kernel(DispatchKey key, const std::string& aten_name,
                                    const std::string& signature, AtenCall call, void* fn,
                                    const std::string& origin);
/// One aten overload brasa maps onto its op `op`: its kernel's signature and the conditions on
/// the brasa call it serves ("out=None alpha=1"; empty when it serves every call).
struct AtenOverload {
  std::string name;
  std::string op;
  std::string signature;
  std::string when;
};
/// Every mapped overload, by brasa op name, then the order in which they are tried (the
/// narrower first). Derived from the op declarations (Note [aten forms]).
BRASA_API std::vector<AtenOverload> aten_overloads();
/// The aten overloads brasa maps onto its ops, sorted.
BRASA_API std::vector<std::string> aten_names();
/// The C++ signature an overload's kernel must have, e.g. "Tensor(Tensor, Tensor, Scalar)"; throws
/// ValueError for an unknown name.
BRASA_API std::string aten_signature(const std::string& aten_name);

}  // namespace brasa::backend
