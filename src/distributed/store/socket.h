#pragma once
// TCP plumbing of TCPStore: an owning socket, connect-with-retry, listen, and the framed messages
// of the wire protocol (Note [TCPStore wire protocol] in tcp_wire.h).

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace brasa::distributed::detail {

class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  Socket(Socket&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Socket& operator=(Socket&& o) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() { close(); }

  int fd() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  void close() noexcept;

 private:
  int fd_ = -1;
};

/// Connects to host:port (a name or an address), retrying refused/unreachable attempts until
/// `timeout` passes; throws DistributedTimeoutError
/// "TCPStore: could not connect to HOST:PORT within N ms (<last error>)".
Socket connect_with_retry(const std::string& host, uint16_t port,
                          std::chrono::milliseconds timeout);

/// A listening socket bound to host:port (port 0: the kernel picks one; see bound_port).
Socket listen_on(const std::string& host, uint16_t port);
uint16_t bound_port(const Socket& s);

/// How a framed read or write ended.
struct IoStatus {
  enum Kind { Ok, Closed, TimedOut, Failed } kind = Ok;
  int error = 0;  // errno for Failed
  bool ok() const noexcept { return kind == Ok; }
  std::string describe() const;
};

using Frame = std::vector<std::string>;

/// Writes one frame (all fields); never raises SIGPIPE.
IoStatus write_frame(int fd, const Frame& frame);
/// Reads one frame, waiting until `deadline` (nullopt: forever). Rejects frames above the size
/// limits as Failed(EMSGSIZE) without allocating them.
IoStatus read_frame(int fd, Frame& frame,
                    std::optional<std::chrono::steady_clock::time_point> deadline);

}  // namespace brasa::distributed::detail
