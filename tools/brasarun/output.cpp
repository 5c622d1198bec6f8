#include "output.h"

#include <unistd.h>

#include <cerrno>

namespace brasarun {

constexpr size_t kMaxLine = 1 << 16;

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

void say(const std::string& text) { write_all(STDERR_FILENO, "brasarun: " + text + "\n"); }

LineForwarder::LineForwarder(int pipe_fd, int out_fd, std::string prefix)
    : pipe_fd_(pipe_fd), out_fd_(out_fd), prefix_(std::move(prefix)) {}

LineForwarder::LineForwarder(LineForwarder&& other) noexcept
    : pipe_fd_(other.pipe_fd_),
      out_fd_(other.out_fd_),
      prefix_(std::move(other.prefix_)),
      pending_(std::move(other.pending_)) {
  other.pipe_fd_ = -1;
}

LineForwarder::~LineForwarder() { finish(); }

void LineForwarder::emit(const char* data, size_t size) {
  std::string out;
  size_t start = 0;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] != '\n') continue;
    out += prefix_;
    out += pending_;
    out.append(data + start, i + 1 - start);
    pending_.clear();
    start = i + 1;
  }
  pending_.append(data + start, size - start);
  if (pending_.size() > kMaxLine) {  // a stream without newlines must not grow memory without bound
    out += prefix_ + pending_ + "\n";
    pending_.clear();
  }
  if (!out.empty()) write_all(out_fd_, out);
}

void LineForwarder::pump() {
  char buffer[65536];
  while (pipe_fd_ >= 0) {
    ssize_t n = ::read(pipe_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    if (n <= 0) {
      finish();
      return;
    }
    emit(buffer, static_cast<size_t>(n));
  }
}

void LineForwarder::finish() {
  if (!pending_.empty()) {
    write_all(out_fd_, prefix_ + pending_ + "\n");
    pending_.clear();
  }
  if (pipe_fd_ >= 0) {
    ::close(pipe_fd_);
    pipe_fd_ = -1;
  }
}

}  // namespace brasarun
