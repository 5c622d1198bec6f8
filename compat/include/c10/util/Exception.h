#pragma once
// libtorch's error spellings over brasa's typed errors: c10::Error is brasa::Error (so is
// c10::IndexError, ValueError, TypeError, NotImplementedError), TORCH_CHECK* are the BRASA_CHECK*
// family. As in libtorch every one of them is caught by `catch (const c10::Error&)`; the message is
// built only on failure.

#include <cstdio>
#include <string>

#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "c10/brasa_namespaces.h"
#include "c10/util/StringUtil.h"
#include "c10/util/string_utils.h"

// Note [c10 warning handlers]
// TORCH_WARN and TORCH_WARN_ONCE go to c10's current WarningHandler, as in libtorch: by default
// one line on stderr ("[W file:line] Warning: message"), or the handler a program installs with
// c10::Warning::set_warning_handler / WarningHandlerGuard (tests capture warnings so). While one
// is installed, the warnings brasa itself raises (brasa::warn) reach it too, with the function
// "brasa" and no file. The handler is process-wide, and setting it is not thread-safe (as in
// libtorch).
namespace c10 {

class WarningHandler {
 public:
  virtual ~WarningHandler() = default;
  /// The default: one line on stderr.
  virtual void process(const SourceLocation& source_location, const std::string& msg,
                       const bool /*verbatim*/) {
    std::fprintf(stderr, "[W %s:%u] Warning: %s\n", source_location.file, source_location.line,
                 msg.c_str());
  }
};

namespace Warning {
namespace detail {
struct State {
  WarningHandler default_handler;
  WarningHandler* handler = nullptr;    // null: default_handler
  ::brasa::WarningHandler saved_brasa;  // brasa's handler before a c10 one was installed
};
inline State& state() {
  static State s;
  return s;
}
}  // namespace detail

/// The current handler (never null).
inline WarningHandler* get_warning_handler() noexcept {
  auto& s = detail::state();
  return s.handler != nullptr ? s.handler : &s.default_handler;
}
/// Installs `handler` (null restores the default); the caller keeps it alive while installed.
inline void set_warning_handler(WarningHandler* handler) noexcept {
  auto& s = detail::state();
  bool was_set = s.handler != nullptr;
  s.handler = handler == &s.default_handler ? nullptr : handler;
  if (s.handler != nullptr && !was_set) {
    s.saved_brasa = ::brasa::set_warning_handler([](const std::string& msg) {
      get_warning_handler()->process(SourceLocation{"brasa", "", 0}, msg, false);
    });
  } else if (s.handler == nullptr && was_set) {
    ::brasa::set_warning_handler(std::move(s.saved_brasa));
    s.saved_brasa = nullptr;
  }
}
/// Hands a warning to the current handler.
inline void warn(const SourceLocation& source_location, const std::string& msg, bool verbatim) {
  get_warning_handler()->process(source_location, msg, verbatim);
}

/// Installs a handler for its lifetime, then restores the previous one.
class WarningHandlerGuard {
 public:
  explicit WarningHandlerGuard(WarningHandler* new_handler) : prev_(get_warning_handler()) {
    set_warning_handler(new_handler);
  }
  ~WarningHandlerGuard() { set_warning_handler(prev_); }
  WarningHandlerGuard(const WarningHandlerGuard&) = delete;
  WarningHandlerGuard& operator=(const WarningHandlerGuard&) = delete;

 private:
  WarningHandler* prev_;
};

/// With warn_always on, TORCH_WARN_ONCE and brasa's once-per-process warnings warn every time
/// (for tests; Note [Warn always]).
inline void set_warnAlways(bool setting) noexcept { ::brasa::set_warn_always(setting); }
inline bool get_warnAlways() noexcept { return ::brasa::get_warn_always(); }
/// Sets warn_always for its lifetime.
struct WarnAlways {
  explicit WarnAlways(bool setting = true) : prev_(get_warnAlways()) { set_warnAlways(setting); }
  ~WarnAlways() { set_warnAlways(prev_); }

 private:
  bool prev_;
};
}  // namespace Warning

/// Later libtorch releases' spelling of the same functions.
namespace WarningUtils {
using ::c10::Warning::get_warnAlways;
using ::c10::Warning::get_warning_handler;
using ::c10::Warning::set_warnAlways;
using ::c10::Warning::set_warning_handler;
using ::c10::Warning::WarnAlways;
using ::c10::Warning::WarningHandlerGuard;
}  // namespace WarningUtils

}  // namespace c10

// libtorch's at:: and torch:: see every c10 name (`namespace at { using namespace c10; }`), so its
// programs and tests say `Warning::set_warning_handler` or derive from `WarningHandler` inside
// namespace torch. brasa's own WarningHandler (a std::function) would make the plain name
// ambiguous there, so these are declared in at:: and torch:: by name.
namespace at {
using ::c10::WarningHandler;
namespace Warning = ::c10::Warning;
namespace WarningUtils = ::c10::WarningUtils;
}  // namespace at
namespace torch {
using ::c10::WarningHandler;
namespace Warning = ::c10::Warning;
namespace WarningUtils = ::c10::WarningUtils;
}  // namespace torch

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
void torch_warn(const char* function, const char* file, int line, const Args&... args) {
  ::c10::Warning::warn(SourceLocation{function, file, static_cast<uint32_t>(line)},
                       ::brasa::detail::str_cat(args...), false);
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
#define TORCH_WARN(...) ::c10::detail::torch_warn(__func__, __FILE__, __LINE__, __VA_ARGS__)
#define TORCH_WARN_ONCE(...)                                                       \
  do {                                                                             \
    if (::c10::Warning::get_warnAlways()) {                                        \
      TORCH_WARN(__VA_ARGS__);                                                     \
      break;                                                                       \
    }                                                                              \
    const char* brasa_function_ = __func__;                                        \
    static const bool brasa_warned_once_ = [&] {                                   \
      ::c10::detail::torch_warn(brasa_function_, __FILE__, __LINE__, __VA_ARGS__); \
      return true;                                                                 \
    }();                                                                           \
    (void)brasa_warned_once_;                                                      \
  } while (0)
