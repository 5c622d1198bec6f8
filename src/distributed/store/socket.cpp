#include "distributed/store/socket.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "brasa/distributed/error.h"

namespace brasa::distributed::detail {
namespace {

constexpr uint32_t kMaxFields = 1u << 20;
constexpr uint64_t kMaxFieldBytes = uint64_t{1} << 31;

using Clock = std::chrono::steady_clock;

struct AddrInfo {
  addrinfo* list = nullptr;
  ~AddrInfo() {
    if (list) freeaddrinfo(list);
  }
};

int resolve(const std::string& host, uint16_t port, bool passive, AddrInfo& out) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  std::string service = std::to_string(port);
  return getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &out.list);
}

// One non-blocking connect attempt bounded by `deadline`; returns the socket or sets `err`.
Socket try_connect(const addrinfo* ai, Clock::time_point deadline, int& err) {
  Socket s(
      ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol));
  if (!s.valid()) {
    err = errno;
    return {};
  }
  if (::connect(s.fd(), ai->ai_addr, ai->ai_addrlen) != 0) {
    if (errno != EINPROGRESS) {
      err = errno;
      return {};
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd p{s.fd(), POLLOUT, 0};
    int n = ::poll(&p, 1, static_cast<int>(std::max<int64_t>(left.count(), 0)));
    if (n <= 0) {
      err = n == 0 ? ETIMEDOUT : errno;
      return {};
    }
    socklen_t len = sizeof(err);
    err = 0;
    ::getsockopt(s.fd(), SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) return {};
  }
  int flags = ::fcntl(s.fd(), F_GETFL);
  ::fcntl(s.fd(), F_SETFL, flags & ~O_NONBLOCK);
  int one = 1;
  ::setsockopt(s.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return s;
}

IoStatus wait_readable(int fd, std::optional<Clock::time_point> deadline) {
  while (true) {
    int ms = -1;
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now());
      if (left.count() < 0) return {IoStatus::TimedOut};
      ms = static_cast<int>(std::min<int64_t>(left.count() + 1, 1 << 30));
    }
    pollfd p{fd, POLLIN, 0};
    int n = ::poll(&p, 1, ms);
    if (n > 0) return {};
    if (n == 0) continue;  // re-check the deadline
    if (errno != EINTR) return {IoStatus::Failed, errno};
  }
}

IoStatus read_exact(int fd, char* data, size_t size, std::optional<Clock::time_point> deadline) {
  while (size > 0) {
    IoStatus st = wait_readable(fd, deadline);
    if (!st.ok()) return st;
    ssize_t n = ::recv(fd, data, size, 0);
    if (n == 0) return {IoStatus::Closed};
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return {errno == ECONNRESET ? IoStatus::Closed : IoStatus::Failed, errno};
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return {};
}

template <typename T>
void put_le(std::string& out, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

template <typename T>
T get_le(const char* p) {
  T v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

}  // namespace

Socket& Socket::operator=(Socket&& o) noexcept {
  if (this != &o) {
    close();
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

void Socket::close() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

std::string IoStatus::describe() const {
  switch (kind) {
    case Ok: return "ok";
    case Closed:
      return error ? std::string("connection lost: ") + std::strerror(error)
                   : "the peer closed the connection";
    case TimedOut: return "no reply in time";
    case Failed: return std::strerror(error);
  }
  return "?";
}

Socket connect_with_retry(const std::string& host, uint16_t port,
                          std::chrono::milliseconds timeout) {
  // A zero timeout (Store::kNoTimeout) retries without end, as every other call treats it.
  auto deadline =
      Clock::now() + (timeout.count() > 0 ? Clock::duration(timeout)
                                          : Clock::duration(std::chrono::hours(24 * 365)));
  std::string last = "no address";
  auto pause = std::chrono::milliseconds(5);
  while (true) {
    AddrInfo ai;
    int rc = resolve(host, port, false, ai);
    if (rc != 0) {
      last = gai_strerror(rc);
    } else {
      for (const addrinfo* p = ai.list; p; p = p->ai_next) {
        int err = 0;
        Socket s = try_connect(p, deadline, err);
        if (s.valid()) return s;
        last = std::strerror(err);
      }
    }
    auto now = Clock::now();
    if (now >= deadline) break;
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, std::chrono::milliseconds(100));
  }
  throw DistributedTimeoutError("TCPStore: could not connect to " + host + ":" +
                                std::to_string(port) + " within " +
                                std::to_string(timeout.count()) + " ms (" + last + ")");
}

Socket listen_on(const std::string& host, uint16_t port) {
  AddrInfo ai;
  int rc = resolve(host, port, true, ai);
  if (rc != 0) {
    throw DistributedError("TCPStore: cannot resolve server address " + host + ":" +
                           std::to_string(port) + " (" + gai_strerror(rc) + ")");
  }
  std::string last = "no address";
  for (const addrinfo* p = ai.list; p; p = p->ai_next) {
    Socket s(::socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, p->ai_protocol));
    if (!s.valid()) {
      last = std::strerror(errno);
      continue;
    }
    int one = 1;
    ::setsockopt(s.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (::bind(s.fd(), p->ai_addr, p->ai_addrlen) == 0 && ::listen(s.fd(), 128) == 0) return s;
    last = std::strerror(errno);
  }
  throw DistributedError("TCPStore: the server cannot listen on " + host + ":" +
                         std::to_string(port) + " (" + last + ")");
}

uint16_t bound_port(const Socket& s) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  ::getsockname(s.fd(), reinterpret_cast<sockaddr*>(&addr), &len);
  if (addr.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
  }
  return ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
}

IoStatus write_frame(int fd, const Frame& frame) {
  std::string buf;
  size_t total = 4;
  for (const auto& f : frame) total += 8 + f.size();
  buf.reserve(total);
  put_le<uint32_t>(buf, static_cast<uint32_t>(frame.size()));
  for (const auto& f : frame) {
    put_le<uint64_t>(buf, f.size());
    buf += f;
  }
  const char* p = buf.data();
  size_t left = buf.size();
  while (left > 0) {
    ssize_t n = ::send(fd, p, left, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return {errno == EPIPE || errno == ECONNRESET ? IoStatus::Closed : IoStatus::Failed, errno};
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return {};
}

IoStatus read_frame(int fd, Frame& frame, std::optional<Clock::time_point> deadline) {
  frame.clear();
  char head[8];
  IoStatus st = read_exact(fd, head, 4, deadline);
  if (!st.ok()) return st;
  uint32_t count = get_le<uint32_t>(head);
  if (count > kMaxFields) return {IoStatus::Failed, EMSGSIZE};
  frame.resize(count);
  for (auto& field : frame) {
    st = read_exact(fd, head, 8, deadline);
    if (!st.ok()) return st;
    uint64_t size = get_le<uint64_t>(head);
    if (size > kMaxFieldBytes) return {IoStatus::Failed, EMSGSIZE};
    field.resize(size);
    st = read_exact(fd, field.data(), size, deadline);
    if (!st.ok()) return st;
  }
  return {};
}

}  // namespace brasa::distributed::detail
