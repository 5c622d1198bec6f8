#pragma once
// DispatchStub: a kernel compiled once per CPU capability (Note [CPU capabilities] in
// cmake/BrasaKernels.cmake); the best copy the CPU supports is picked on first use.
// BRASA_CPU_CAPABILITY_OVERRIDE=default|avx2|avx512 forces a lower one (for testing).

#include <atomic>

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

/// In a header: the stub's type. In one non-kernel .cpp: BRASA_DEFINE_STUB. In kernel files
/// (compiled per capability): BRASA_REGISTER_STUB(stub, fn).
#define BRASA_DECLARE_STUB(stub, fn_type) extern ::brasa::cpu::DispatchStub<fn_type> stub
#define BRASA_DEFINE_STUB(stub, fn_type) constinit ::brasa::cpu::DispatchStub<fn_type> stub(#stub)
#define BRASA_REGISTER_STUB(stub, fn)                                                     \
  static const bool BRASA_CONCAT(brasa_stub_reg_, __COUNTER__) = [] {                     \
    stub.impl[static_cast<int>(::brasa::cpu::CpuCapability::BRASA_CPU_CAPABILITY)] = &fn; \
    return true;                                                                          \
  }()
#ifndef BRASA_CONCAT
#define BRASA_CONCAT_INNER(a, b) a##b
#define BRASA_CONCAT(a, b) BRASA_CONCAT_INNER(a, b)
#endif
