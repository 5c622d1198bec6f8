#pragma once
// Typed errors and the BRASA_CHECK family. The message is built only when the check fails.

#include <array>
#include <cstddef>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>

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
// Note [Error messages, type-erased]
// A message is built only when a check fails, so its code is never hot; but written as one
// ostringstream fold per argument list it was instantiated about a thousand times (0.7 MB of the
// library). Each argument is instead passed as a pointer plus the function that streams its type:
// one streaming function per type (shared by every message), one non-template join, and per
// argument list only an array fill and a call.
struct MessagePart {
  const void* value;
  void (*write)(std::ostream&, const void*);
};
template <typename T>
void write_message_part(std::ostream& os, const void* value) {
  if constexpr (std::is_function_v<T>) {  // a manipulator such as std::hex
    os << reinterpret_cast<T*>(const_cast<void*>(value));
  } else {
    os << *static_cast<const T*>(value);
  }
}
BRASA_API void write_c_string(std::ostream& os, const void* value);
template <typename T>
MessagePart message_part(const T& value) {
  if constexpr (std::is_array_v<T>) {
    static_assert(std::is_same_v<std::remove_cv_t<std::remove_extent_t<T>>, char>,
                  "only character arrays can be streamed into a message");
    return {static_cast<const void*>(value), &write_c_string};
  } else if constexpr (std::is_same_v<T, const char*> || std::is_same_v<T, char*>) {
    return {static_cast<const void*>(value), &write_c_string};
  } else if constexpr (std::is_function_v<T>) {
    return {reinterpret_cast<const void*>(&value), &write_message_part<T>};
  } else {
    return {static_cast<const void*>(&value), &write_message_part<T>};
  }
}
BRASA_API std::string join_message(const MessagePart* parts, std::size_t count);
/// Throws E with the message; one instance per error kind.
template <typename E>
[[noreturn]] BRASA_NOINLINE void throw_message(const std::string& message) {
  throw E(message);
}
[[noreturn]] BRASA_API void throw_joined(void (*thrower)(const std::string&),
                                         const MessagePart* parts, std::size_t count);

template <typename... Args>
std::string str_cat(const Args&... args) {
  const std::array<MessagePart, sizeof...(Args)> parts{message_part(args)...};
  return join_message(parts.data(), parts.size());
}

/// A message argument's type as the out-of-line part takes it: character arrays as `const char*`,
/// functions (manipulators) as pointers, everything else unchanged.
template <typename T>
using message_arg_t = std::conditional_t<std::is_array_v<T>, const char*, std::decay_t<T>>;
template <typename E, typename... Args>
[[noreturn]] BRASA_NOINLINE void throw_decayed(const Args&... args) {
  const std::array<MessagePart, sizeof...(Args)> parts{message_part(args)...};
  throw_joined(&throw_message<E>, parts.data(), parts.size());
}
/// Throws E with the streamed arguments. String literals reach the out-of-line part as
/// `const char*`, so messages that differ only in their literals' lengths share one instance
/// (there were 1,139 instances, many of them one per length).
template <typename E, typename... Args>
[[noreturn]] BRASA_ALWAYS_INLINE void throw_error(const Args&... args) {
  throw_decayed<E, message_arg_t<Args>...>(args...);
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
