#pragma once
// Forwards one worker stream (a pipe) to brasarun's stdout or stderr as whole lines with a "[rank
// N]: " prefix, so lines of different workers never interleave mid-line.

#include <string>

namespace brasarun {

class LineForwarder {
 public:
  LineForwarder(int pipe_fd, int out_fd, std::string prefix);
  LineForwarder(LineForwarder&& other) noexcept;
  LineForwarder& operator=(LineForwarder&&) = delete;
  LineForwarder(const LineForwarder&) = delete;
  ~LineForwarder();

  int fd() const { return pipe_fd_; }
  bool open() const { return pipe_fd_ >= 0; }
  /// Reads what the pipe holds without blocking and writes every complete line; at end of file
  /// writes the partial last line (with a newline) and closes the pipe.
  void pump();
  /// Writes a pending partial line and closes the pipe (the stream is abandoned).
  void finish();

 private:
  void emit(const char* data, size_t size);

  int pipe_fd_;
  int out_fd_;
  std::string prefix_;
  std::string pending_;
};

/// Writes all of `text` to `fd`, retrying short writes; errors (a closed stdout) are ignored.
void write_all(int fd, const std::string& text);

/// A line of brasarun's own on stderr: "brasarun: <text>\n".
void say(const std::string& text);

}  // namespace brasarun
