#pragma once
// libtorch's error spellings over brasa's typed errors: c10::Error is brasa::Error (so is
// c10::IndexError, ValueError, TypeError, NotImplementedError), TORCH_CHECK* are the BRASA_CHECK*
// family. As in libtorch every one of them is caught by `catch (const c10::Error&)`; the message is
// built only on failure.

#include <cstdio>
#include <string>

#include "brasa/core/error.h"
#include "c10/brasa_namespaces.h"

namespace c10::detail {
/// TORCH_CHECK's message: the streamed arguments, or libtorch's default text when there are none.
template <typename... Args>
std::string torch_check_msg(const char* cond, const Args&... args) {
  if constexpr (sizeof...(Args) == 0) {
    return ::brasa::detail::str_cat("Expected ", cond, " to be true, but got false.");
  } else {
    return ::brasa::detail::str_cat(args...);
  }
}
template <typename... Args>
void torch_warn(const char* file, int line, const Args&... args) {
  std::string msg = ::brasa::detail::str_cat(args...);
  std::fprintf(stderr, "[W %s:%d] Warning: %s\n", file, line, msg.c_str());
}
}  // namespace c10::detail

/// Throws c10::ValueError (a c10::Error) unless cond holds.
#define TORCH_CHECK(cond, ...) \
  BRASA_CHECK(cond, ::c10::detail::torch_check_msg(#cond __VA_OPT__(, ) __VA_ARGS__))
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define TORCH_CHECK_INDEX(cond, ...) \
  BRASA_CHECK_INDEX(cond, ::c10::detail::torch_check_msg(#cond __VA_OPT__(, ) __VA_ARGS__))
#define TORCH_CHECK_TYPE(cond, ...) \
  BRASA_CHECK_TYPE(cond, ::c10::detail::torch_check_msg(#cond __VA_OPT__(, ) __VA_ARGS__))
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) \
  BRASA_CHECK_NOT_IMPLEMENTED(cond,            \
                              ::c10::detail::torch_check_msg(#cond __VA_OPT__(, ) __VA_ARGS__))
#define TORCH_INTERNAL_ASSERT(cond, ...) BRASA_INTERNAL_ASSERT(cond, "" __VA_OPT__(, ) __VA_ARGS__)
#ifdef NDEBUG
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) \
  while (false) TORCH_INTERNAL_ASSERT(cond __VA_OPT__(, ) __VA_ARGS__)
#else
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) \
  TORCH_INTERNAL_ASSERT(cond __VA_OPT__(, ) __VA_ARGS__)
#endif
#define TORCH_CHECK_WITH(error_t, cond, ...) \
  BRASA_CHECK_TYPED(error_t, cond, ::c10::detail::torch_check_msg(#cond __VA_OPT__(, ) __VA_ARGS__))
#define TORCH_CHECK_ARG(cond, argN, ...) \
  TORCH_CHECK(cond, "invalid argument ", argN, ": " __VA_OPT__(, ) __VA_ARGS__)
#define TORCH_CHECK_LINALG(cond, ...) TORCH_CHECK(cond, __VA_ARGS__)
#define C10_THROW_ERROR(error_t, msg) BRASA_THROW(error_t, msg)
#define AT_ERROR(...) BRASA_THROW(RuntimeError, __VA_ARGS__)
// libtorch's deprecated aliases of TORCH_INTERNAL_ASSERT (AT_ASSERT(cond) or AT_ASSERT(cond,
// msg...)).
#define AT_ASSERT(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#define AT_ASSERTM(cond, ...) TORCH_INTERNAL_ASSERT(cond, __VA_ARGS__)
#define TORCH_WARN(...) ::c10::detail::torch_warn(__FILE__, __LINE__, __VA_ARGS__)
#define TORCH_WARN_ONCE(...)                                      \
  do {                                                            \
    static const bool brasa_warned_once_ = [&] {                  \
      ::c10::detail::torch_warn(__FILE__, __LINE__, __VA_ARGS__); \
      return true;                                                \
    }();                                                          \
    (void)brasa_warned_once_;                                     \
  } while (0)
