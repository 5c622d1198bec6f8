#pragma once
// <c10/macros/Macros.h>: libtorch's attribute and helper macros, spelled over the compiler's
// attributes (GCC/Clang; brasa builds CPU code only, so the CUDA ones are empty). Like libtorch's,
// it brings <cassert>: programs written against <torch/torch.h> call assert() without including it
// (pytorch/examples' cpp/custom-dataset).

#include <cassert>

#include "c10/macros/Export.h"

#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))
#define C10_UNUSED __attribute__((__unused__))
#define C10_USED __attribute__((__used__))
#define C10_NODISCARD [[nodiscard]]
#define C10_FALLTHROUGH [[fallthrough]]
#define C10_NOINLINE __attribute__((noinline))
#define C10_ALWAYS_INLINE __attribute__((__always_inline__)) inline
#define C10_ALWAYS_INLINE_UNLESS_MOBILE C10_ALWAYS_INLINE
#define C10_RESTRICT __restrict
#define C10_ERASE C10_ALWAYS_INLINE
#define C10_HAS_CPP_ATTRIBUTE(x) __has_cpp_attribute(x)
#define C10_DEPRECATED [[deprecated]]
#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]
#define C10_IS_TRIVIALLY_COPYABLE(T) std::is_trivially_copyable<T>::value

#define C10_CONCATENATE_IMPL(s1, s2) s1##s2
#define C10_CONCATENATE(s1, s2) C10_CONCATENATE_IMPL(s1, s2)
#define C10_MACRO_EXPAND(args) args
#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)
#define C10_UID __COUNTER__
#define C10_ANONYMOUS_VARIABLE(str) C10_CONCATENATE(str, __COUNTER__)

#define C10_DISABLE_COPY_AND_ASSIGN(classname) \
  classname(const classname&) = delete;        \
  classname& operator=(const classname&) = delete

// No CUDA/HIP in brasa: the device qualifiers are empty.
#define C10_HOST
#define C10_DEVICE
#define C10_HOST_DEVICE
#define C10_HIP_HOST_DEVICE
#define C10_HOST_CONSTEXPR_EXCEPT_WIN_CUDA constexpr
#define C10_WARP_SIZE 32

#if defined(__SANITIZE_ADDRESS__)
#define C10_ASAN_ENABLED 1
#else
#define C10_ASAN_ENABLED 0
#endif
