#pragma once
// DispatchStub: a kernel compiled once per CPU capability (Note [CPU capabilities] in
// cmake/BrasaKernels.cmake); the best copy the CPU supports is picked on first use.
// BRASA_CPU_CAPABILITY_OVERRIDE=default|avx2|avx512 forces a lower one (for testing).

#include <atomic>

#include "brasa/core/dtype.h"
#include "brasa/core/error.h"

namespace brasa::cpu {

enum class CpuCapability : int { DEFAULT = 0, AVX2 = 1, AVX512 = 2, NUM = 3 };

/// The capability used for kernels in this process.
BRASA_API CpuCapability cpu_capability();
BRASA_API const char* to_string(CpuCapability c);

template <typename Fn>
struct DispatchStub {
  Fn impl[static_cast<int>(CpuCapability::NUM)] = {};
  std::atomic<Fn> chosen{nullptr};
  const char* name;
  constexpr explicit DispatchStub(const char* n) : name(n) {}

  Fn get() {
    Fn f = chosen.load(std::memory_order_relaxed);
    if (BRASA_LIKELY(f != nullptr)) return f;
    for (int c = static_cast<int>(cpu_capability()); c >= 0; --c) {
      if (impl[c]) {
        chosen.store(impl[c], std::memory_order_relaxed);
        return impl[c];
      }
    }
    BRASA_THROW(InternalError, "no CPU kernel registered for ", name);
  }
  template <typename... Args>
  decltype(auto) operator()(Args&&... args) {
    return get()(std::forward<Args>(args)...);
  }
};

}  // namespace brasa::cpu

// Note [Capability dtypes]
// Wide vectors pay off for floating-point data, which is what models compute on; integer and bool
// kernels (indices, masks, counts) gain little from them and were two thirds of the per-capability
// code. A kernel file whose first line is `#define BRASA_KERNEL_FLOATING_CAPABILITY` is compiled,
// in its AVX2 and AVX-512 builds, for the floating dtypes only (Half, BFloat16, Float, Double): the
// BRASA_DISPATCH_* macros drop their integer and bool cases there, and BRASA_REGISTER_STUB
// registers a wrapper that hands any other dtype to the DEFAULT build's kernel. The dtype is the
// one the kernel dispatches on, `kernel_dtype(first argument)` (defined next to each iterator
// type); a kernel in such a file must dispatch on exactly that dtype.
#if defined(BRASA_KERNEL_FLOATING_CAPABILITY) && !defined(BRASA_CPU_CAPABILITY_DEFAULT)
#define BRASA_KERNEL_FLOATING_ONLY 1
#endif
// Note [Capability builds per file] (cmake/BrasaKernels.cmake): such a file is built for DEFAULT
// only.
#if defined(BRASA_KERNEL_DEFAULT_ONLY) && !defined(BRASA_CPU_CAPABILITY_DEFAULT)
#error "a BRASA_KERNEL_DEFAULT_ONLY kernel file was compiled for a wider capability"
#endif

namespace brasa::cpu::detail {
template <auto& stub, auto fn, typename R, typename First, typename... Rest>
R floating_or_default(First first, Rest... rest) {
  if (BRASA_LIKELY(is_floating_type(kernel_dtype(first)))) return fn(first, rest...);
  return stub.impl[static_cast<int>(CpuCapability::DEFAULT)](first, rest...);
}
template <auto& stub, auto fn, typename R, typename First, typename... Rest>
constexpr auto floating_or_default_for(R (*)(First, Rest...)) {
  return &floating_or_default<stub, fn, R, First, Rest...>;
}
}  // namespace brasa::cpu::detail

/// In a header: the stub's type. In one non-kernel .cpp: BRASA_DEFINE_STUB. In kernel files
/// (compiled per capability): BRASA_REGISTER_STUB(stub, fn).
#define BRASA_DECLARE_STUB(stub, fn_type) extern ::brasa::cpu::DispatchStub<fn_type> stub
#define BRASA_DEFINE_STUB(stub, fn_type) constinit ::brasa::cpu::DispatchStub<fn_type> stub(#stub)
#if defined(BRASA_KERNEL_FLOATING_ONLY)
#define BRASA_STUB_ENTRY(stub, fn) ::brasa::cpu::detail::floating_or_default_for<stub, &fn>(&fn)
#else
#define BRASA_STUB_ENTRY(stub, fn) &fn
#endif
#define BRASA_REGISTER_STUB(stub, fn)                                                \
  static const bool BRASA_CONCAT(brasa_stub_reg_, __COUNTER__) = [] {                \
    stub.impl[static_cast<int>(::brasa::cpu::CpuCapability::BRASA_CPU_CAPABILITY)] = \
        BRASA_STUB_ENTRY(stub, fn);                                                  \
    return true;                                                                     \
  }()
#ifndef BRASA_CONCAT
#define BRASA_CONCAT_INNER(a, b) a##b
#define BRASA_CONCAT(a, b) BRASA_CONCAT_INNER(a, b)
#endif
