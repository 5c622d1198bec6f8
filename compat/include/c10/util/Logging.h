#pragma once
// <c10/util/Logging.h>: LOG(severity) streams, as in libtorch's build without glog. LOG(INFO),
// LOG(WARNING), LOG(ERROR) write one line to stderr ("[W file:line] message"); LOG(FATAL) writes
// its line and then aborts the program, which is what the severity means in libtorch (it is user
// code that asks for it: brasa itself never aborts). VLOG(n) is silent (libtorch's default
// verbosity is 0); LOG_IF(severity, cond) logs when cond holds. CHECK(cond), TORCH_CHECK_EQ(a, b)
// (_NE, _LT, _LE, _GT, _GE) and TORCH_CHECK_NOTNULL(p) log "Check failed: ..." (plus anything
// streamed into them) and abort like LOG(FATAL), as in libtorch; unlike TORCH_CHECK they are not
// exceptions. DCHECK and TORCH_DCHECK_* check only without NDEBUG. Debian's libtorch is built with
// glog (C10_USE_GLOG), whose spellings its headers bring too: CHECK_EQ (_NE, _LT, _LE, _GT, _GE),
// CHECK_NOTNULL and DCHECK_EQ (...) are the same checks here (each left alone if glog's own
// <glog/logging.h> came first).

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>

#include "c10/macros/Macros.h"

namespace c10::detail {

enum LogSeverity { INFO = 0, WARNING = 1, ERROR = 2, FATAL = 3 };

class MessageLogger {
 public:
  MessageLogger(const char* file, int line, int severity) : severity_(severity) {
    stream_ << "["
            << "IWEF"[severity_ & 3] << " " << file << ":" << line << "] ";
  }
  ~MessageLogger() {
    stream_ << "\n";
    std::fputs(stream_.str().c_str(), stderr);
    if (severity_ == FATAL) std::abort();
  }
  MessageLogger(const MessageLogger&) = delete;
  MessageLogger& operator=(const MessageLogger&) = delete;
  std::ostream& stream() { return stream_; }

 private:
  int severity_;
  std::ostringstream stream_;
};

/// Swallows a stream expression (the disabled branch of LOG_IF / VLOG).
struct LoggerVoidify {
  void operator&(const std::ostream&) {}
};

/// TORCH_CHECK_NOTNULL: the value, after aborting if it is null.
template <typename T>
T check_not_null(const char* file, int line, const char* what, T&& value) {
  if (value == nullptr) MessageLogger(file, line, FATAL).stream() << what;
  return std::forward<T>(value);
}

}  // namespace c10::detail

#define LOG(n) ::c10::detail::MessageLogger(__FILE__, __LINE__, ::c10::detail::n).stream()
#define LOG_IF(n, condition) !(condition) ? (void)0 : ::c10::detail::LoggerVoidify() & LOG(n)
#define VLOG(n) true ? (void)0 : ::c10::detail::LoggerVoidify() & LOG(INFO)
#define VLOG_IS_ON(verbose_level) ((verbose_level) <= 0)

#define BRASA_FATAL_IF_NOT(condition) \
  (condition) ? (void)0 : ::c10::detail::LoggerVoidify() & LOG(FATAL)
#define CHECK(condition) BRASA_FATAL_IF_NOT(condition) << "Check failed: " #condition " "
#define TORCH_CHECK_OP(val1, val2, op) \
  BRASA_FATAL_IF_NOT((val1)op(val2))   \
      << "Check failed: " #val1 " " #op " " #val2 " (" << (val1) << " vs. " << (val2) << ") "
#define TORCH_CHECK_EQ(val1, val2) TORCH_CHECK_OP(val1, val2, ==)
#define TORCH_CHECK_NE(val1, val2) TORCH_CHECK_OP(val1, val2, !=)
#define TORCH_CHECK_LE(val1, val2) TORCH_CHECK_OP(val1, val2, <=)
#define TORCH_CHECK_LT(val1, val2) TORCH_CHECK_OP(val1, val2, <)
#define TORCH_CHECK_GE(val1, val2) TORCH_CHECK_OP(val1, val2, >=)
#define TORCH_CHECK_GT(val1, val2) TORCH_CHECK_OP(val1, val2, >)
#define TORCH_CHECK_NOTNULL(val) \
  ::c10::detail::check_not_null(__FILE__, __LINE__, "'" #val "' Must be non NULL", (val))
#ifdef NDEBUG
#define BRASA_DEBUG_ONLY_ while (false)
#else
#define BRASA_DEBUG_ONLY_
#endif
#define DCHECK(condition) BRASA_DEBUG_ONLY_ CHECK(condition)
#define TORCH_DCHECK_EQ(val1, val2) BRASA_DEBUG_ONLY_ TORCH_CHECK_EQ(val1, val2)
#define TORCH_DCHECK_NE(val1, val2) BRASA_DEBUG_ONLY_ TORCH_CHECK_NE(val1, val2)
#define TORCH_DCHECK_LE(val1, val2) BRASA_DEBUG_ONLY_ TORCH_CHECK_LE(val1, val2)
#define TORCH_DCHECK_LT(val1, val2) BRASA_DEBUG_ONLY_ TORCH_CHECK_LT(val1, val2)
#define TORCH_DCHECK_GE(val1, val2) BRASA_DEBUG_ONLY_ TORCH_CHECK_GE(val1, val2)
#define TORCH_DCHECK_GT(val1, val2) BRASA_DEBUG_ONLY_ TORCH_CHECK_GT(val1, val2)
#define TORCH_DCHECK_NOTNULL(val) BRASA_DEBUG_ONLY_ TORCH_CHECK_NOTNULL(val)

// glog's spellings (see the top of this file).
#ifndef CHECK_EQ
#define CHECK_EQ(val1, val2) TORCH_CHECK_EQ(val1, val2)
#define CHECK_NE(val1, val2) TORCH_CHECK_NE(val1, val2)
#define CHECK_LE(val1, val2) TORCH_CHECK_LE(val1, val2)
#define CHECK_LT(val1, val2) TORCH_CHECK_LT(val1, val2)
#define CHECK_GE(val1, val2) TORCH_CHECK_GE(val1, val2)
#define CHECK_GT(val1, val2) TORCH_CHECK_GT(val1, val2)
#define CHECK_NOTNULL(val) TORCH_CHECK_NOTNULL(val)
#define DCHECK_EQ(val1, val2) TORCH_DCHECK_EQ(val1, val2)
#define DCHECK_NE(val1, val2) TORCH_DCHECK_NE(val1, val2)
#define DCHECK_LE(val1, val2) TORCH_DCHECK_LE(val1, val2)
#define DCHECK_LT(val1, val2) TORCH_DCHECK_LT(val1, val2)
#define DCHECK_GE(val1, val2) TORCH_DCHECK_GE(val1, val2)
#define DCHECK_GT(val1, val2) TORCH_DCHECK_GT(val1, val2)
#endif
