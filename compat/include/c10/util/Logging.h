#pragma once
// <c10/util/Logging.h>: LOG(severity) streams, as in libtorch's build without glog. LOG(INFO),
// LOG(WARNING), LOG(ERROR) write one line to stderr ("[W file:line] message"); LOG(FATAL) writes
// its line and then aborts the program, which is what the severity means in libtorch (it is user
// code that asks for it: brasa itself never aborts). VLOG(n) is silent (libtorch's default
// verbosity is 0); LOG_IF(severity, cond) logs when cond holds.

#include <cstdio>
#include <cstdlib>
#include <sstream>

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

}  // namespace c10::detail

#define LOG(n) ::c10::detail::MessageLogger(__FILE__, __LINE__, ::c10::detail::n).stream()
#define LOG_IF(n, condition) !(condition) ? (void)0 : ::c10::detail::LoggerVoidify() & LOG(n)
#define VLOG(n) true ? (void)0 : ::c10::detail::LoggerVoidify() & LOG(INFO)
#define VLOG_IS_ON(verbose_level) ((verbose_level) <= 0)
