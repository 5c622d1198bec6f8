#pragma once
// Typed errors and the BRASA_CHECK family. The message is built only when the check fails.

#include <sstream>
#include <stdexcept>
#include <string>

#include "brasa/core/macros.h"

namespace brasa {

/// Base of every error brasa throws (c10::Error); what() is the full message. Catch it by
/// reference. It is not itself a std::exception: each kind below also derives from exactly one
/// standard exception, std::runtime_error (std::system_error for the distributed family), so one
/// thrown object is caught as its kind, as brasa::Error, as its standard type and as
/// std::exception. (Were brasa::Error a std::runtime_error, no error could also be a
/// std::system_error: it would hold two std::exception bases, and `catch (const std::exception&)`
/// would match neither. Note [Error hierarchy] in docs/distributed.md.)
class BRASA_API Error {
 public:
  virtual ~Error();
  virtual const char* what() const noexcept = 0;
  /// libtorch's accessors (c10::Error). brasa records no backtrace or source location in the
  /// message, so the message, what() and what_without_backtrace() are the same text.
  const char* what_without_backtrace() const noexcept { return what(); }
  std::string msg() const { return what(); }
  std::string backtrace() const { return {}; }

 protected:
  Error() = default;
  Error(const Error&) = default;
  Error& operator=(const Error&) = default;
};
/// A failure with no more specific kind (AT_ERROR).
class BRASA_API RuntimeError : public Error, public std::runtime_error {
 public:
  explicit RuntimeError(const std::string& msg) : std::runtime_error(msg) {}
  const char* what() const noexcept override { return std::runtime_error::what(); }
};
/// A value was out of the accepted domain (shapes, sizes, arguments).
class BRASA_API ValueError : public Error, public std::runtime_error {
 public:
  explicit ValueError(const std::string& msg) : std::runtime_error(msg) {}
  const char* what() const noexcept override { return std::runtime_error::what(); }
};
/// An index or dim was out of range.
class BRASA_API IndexError : public Error, public std::runtime_error {
 public:
  explicit IndexError(const std::string& msg) : std::runtime_error(msg) {}
  const char* what() const noexcept override { return std::runtime_error::what(); }
};
/// A dtype, device or kind of argument was not accepted.
class BRASA_API TypeError : public Error, public std::runtime_error {
 public:
  explicit TypeError(const std::string& msg) : std::runtime_error(msg) {}
  const char* what() const noexcept override { return std::runtime_error::what(); }
};
/// The op exists but not for these inputs (dtype, device, backend).
class BRASA_API NotImplementedError : public Error, public std::runtime_error {
 public:
  explicit NotImplementedError(const std::string& msg) : std::runtime_error(msg) {}
  const char* what() const noexcept override { return std::runtime_error::what(); }
};
/// An internal invariant failed: a bug in brasa.
class BRASA_API InternalError : public Error, public std::runtime_error {
 public:
  explicit InternalError(const std::string& msg) : std::runtime_error(msg) {}
  const char* what() const noexcept override { return std::runtime_error::what(); }
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
