#pragma once
// Typed errors and the BRASA_CHECK family. The message is built only when the check fails.

#include <sstream>
#include <stdexcept>
#include <string>

#include "brasa/core/macros.h"

namespace brasa {

/// Base of every error brasa throws; what() is the full message.
class BRASA_API Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
};
/// A value was out of the accepted domain (shapes, sizes, arguments).
class BRASA_API ValueError : public Error {
 public:
  using Error::Error;
};
/// An index or dim was out of range.
class BRASA_API IndexError : public Error {
 public:
  using Error::Error;
};
/// A dtype, device or kind of argument was not accepted.
class BRASA_API TypeError : public Error {
 public:
  using Error::Error;
};
/// The op exists but not for these inputs (dtype, device, backend).
class BRASA_API NotImplementedError : public Error {
 public:
  using Error::Error;
};
/// An internal invariant failed: a bug in brasa.
class BRASA_API InternalError : public Error {
 public:
  using Error::Error;
};

namespace detail {
template <typename... Args>
std::string str_cat(const Args&... args) {
  std::ostringstream ss;
  (ss << ... << args);
  return ss.str();
}
inline std::string str_cat() { return {}; }

template <typename E, typename... Args>
[[noreturn]] BRASA_NOINLINE void throw_error(const Args&... args) {
  throw E(str_cat(args...));
}
[[noreturn]] BRASA_API void throw_internal(const char* file, int line, const char* cond,
                                           const std::string& msg);
}  // namespace detail
}  // namespace brasa

#define BRASA_CHECK_TYPED(kind, cond, ...)                      \
  do {                                                          \
    if (BRASA_UNLIKELY(!(cond))) {                              \
      ::brasa::detail::throw_error<::brasa::kind>(__VA_ARGS__); \
    }                                                           \
  } while (0)

/// Throws brasa::ValueError with the streamed message when cond is false.
#define BRASA_CHECK(cond, ...) BRASA_CHECK_TYPED(ValueError, cond, __VA_ARGS__)
#define BRASA_CHECK_INDEX(cond, ...) BRASA_CHECK_TYPED(IndexError, cond, __VA_ARGS__)
#define BRASA_CHECK_TYPE(cond, ...) BRASA_CHECK_TYPED(TypeError, cond, __VA_ARGS__)
#define BRASA_CHECK_NOT_IMPLEMENTED(cond, ...) \
  BRASA_CHECK_TYPED(NotImplementedError, cond, __VA_ARGS__)
#define BRASA_THROW(kind, ...) ::brasa::detail::throw_error<::brasa::kind>(__VA_ARGS__)
#define BRASA_INTERNAL_ASSERT(cond, ...)                                      \
  do {                                                                        \
    if (BRASA_UNLIKELY(!(cond))) {                                            \
      ::brasa::detail::throw_internal(__FILE__, __LINE__, #cond,              \
                                      ::brasa::detail::str_cat(__VA_ARGS__)); \
    }                                                                         \
  } while (0)
