#include "distributed/store/tcp_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <map>

#include "brasa/core/error.h"
#include "brasa/distributed/error.h"
#include "distributed/store/tcp_wire.h"

namespace brasa::distributed::detail {
namespace {

// Servers of this process by port, for TCPStoreOptions::multiTenant.
std::mutex g_registry_mutex;
std::map<uint16_t, std::weak_ptr<TcpServer>> g_registry;

int64_t parse_int(const std::string& s, const char* what) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  BRASA_CHECK(ec == std::errc() && ptr == s.data() + s.size(), "malformed ", what, " \"", s, "\"");
  return v;
}

Frame reply(char status) { return Frame{std::string(1, status)}; }
Frame reply(char status, std::string value) {
  return Frame{std::string(1, status), std::move(value)};
}

}  // namespace

std::shared_ptr<TcpServer> TcpServer::start(const std::string& host, uint16_t port,
                                            bool multi_tenant) {
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  std::erase_if(g_registry, [](const auto& entry) { return entry.second.expired(); });
  if (multi_tenant && port != 0) {
    auto it = g_registry.find(port);
    if (it != g_registry.end()) {
      if (auto live = it->second.lock()) return live;
    }
  }
  auto server = std::make_shared<TcpServer>(listen_on(host, port), host);
  if (multi_tenant) g_registry[server->port()] = server;
  return server;
}

TcpServer::TcpServer(Socket listener, std::string host)
    : host_(std::move(host)), listener_(std::move(listener)), port_(bound_port(listener_)) {
  // Non-blocking, so a connection reset between poll and accept cannot park the acceptor.
  ::fcntl(listener_.fd(), F_SETFL, ::fcntl(listener_.fd(), F_GETFL) | O_NONBLOCK);
  table_.set_observer([this](const std::string& key, const std::optional<Bytes>& old,
                             const std::optional<Bytes>& now) { queue_change(key, old, now); });
  if (::pipe2(wake_, O_CLOEXEC) != 0) {
    throw DistributedError("TCPStore: the server on port " + std::to_string(port_) +
                           " cannot create its wake-up pipe");
  }
  acceptor_ = std::thread([this] { accept_loop(); });
}

TcpServer::~TcpServer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    for (auto& c : connections_) ::shutdown(c.socket.fd(), SHUT_RDWR);
  }
  table_.stop();
  char b = 1;
  while (::write(wake_[1], &b, 1) < 0 && errno == EINTR) {
  }
  acceptor_.join();
  for (auto& c : connections_) c.thread.join();  // no new connections once the acceptor is gone
  ::close(wake_[0]);
  ::close(wake_[1]);
}

void TcpServer::reap_finished() {
  for (auto it = connections_.begin(); it != connections_.end();) {
    if (it->done.load()) {
      it->thread.join();
      it = connections_.erase(it);
    } else {
      ++it;
    }
  }
}

void TcpServer::accept_loop() {
  while (true) {
    pollfd fds[2] = {{listener_.fd(), POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents) return;
    if (!(fds[0].revents & POLLIN)) continue;
    int fd = ::accept4(listener_.fd(), nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::lock_guard<std::mutex> lock(mutex_);
    reap_finished();
    if (stopping_) {
      ::close(fd);
      return;
    }
    Connection& c = connections_.emplace_back();
    c.socket = Socket(fd);
    c.thread = std::thread([this, &c] { serve(&c); });
  }
}

void TcpServer::serve(Connection* c) {
  Frame request;
  while (read_frame(c->socket.fd(), request, std::nullopt).ok()) {
    Frame response;
    try {
      const bool is_watch =
          request.size() == 2 && request[0].size() == 1 && request[0][0] == wire::kWatch;
      const bool is_lease =
          request.size() == 2 && request[0].size() == 1 && request[0][0] == wire::kLease;
      response = is_watch   ? watch(c, request[1])
                 : is_lease ? lease(c, request[1])
                            : handle(request);
    } catch (const std::exception& e) {
      response = reply(wire::kError, e.what());
    }
    if (!reply_to(c, response)) break;
    send_changes();
  }
  unwatch(c);
  for (const auto& key : c->leases) {  // Note [Liveness leases]
    try {
      table_.add(key, -1);
    } catch (const std::exception&) {  // a client overwrote the counter with a non-integer
    }
  }
  send_changes();
  ::shutdown(c->socket.fd(), SHUT_RDWR);
  c->done.store(true);
}

// A watch connection is written by other connections' threads too (send_changes), so its writes
// hold watch_mutex_.
bool TcpServer::reply_to(Connection* c, const Frame& response) {
  std::unique_lock<std::mutex> lock(watch_mutex_);
  if (!c->watching) lock.unlock();
  return write_frame(c->socket.fd(), response).ok();
}

Frame TcpServer::watch(Connection* c, const std::string& key) {
  std::lock_guard<std::mutex> lock(watch_mutex_);
  auto& list = watchers_[key];
  if (std::find(list.begin(), list.end(), c) == list.end()) list.push_back(c);
  c->watching = true;
  return reply(wire::kOk);
}

Frame TcpServer::lease(Connection* c, const std::string& key) {
  const int64_t count = table_.add(key, 1);
  c->leases.push_back(key);
  return reply(wire::kOk, std::to_string(count));
}

void TcpServer::unwatch(Connection* c) {
  std::lock_guard<std::mutex> lock(watch_mutex_);
  if (!c->watching) return;
  for (auto it = watchers_.begin(); it != watchers_.end();) {
    std::erase(it->second, c);
    it = it->second.empty() ? watchers_.erase(it) : std::next(it);
  }
  c->watching = false;
}

void TcpServer::queue_change(const std::string& key, const std::optional<Bytes>& old,
                             const std::optional<Bytes>& now) {
  std::lock_guard<std::mutex> lock(watch_mutex_);
  if (watchers_.find(key) == watchers_.end()) return;
  changes_.push_back(Frame{std::string(1, wire::kUpdate), key, old ? "1" : "0", old.value_or(""),
                           now ? "1" : "0", now.value_or("")});
}

void TcpServer::send_changes() {
  std::lock_guard<std::mutex> lock(watch_mutex_);
  while (!changes_.empty()) {
    Frame change = std::move(changes_.front());
    changes_.pop_front();
    auto it = watchers_.find(change[1]);
    if (it == watchers_.end()) continue;
    // A watcher that went away is unregistered by its own thread when its read fails.
    for (Connection* w : it->second) (void)write_frame(w->socket.fd(), change);
  }
}

Frame TcpServer::handle(const Frame& rq) {
  BRASA_CHECK(!rq.empty() && rq[0].size() == 1, "empty or malformed request");
  const char op = rq[0][0];
  auto need = [&](size_t n) {
    BRASA_CHECK(rq.size() >= n, "request '", op, "' has ", rq.size() - 1, " fields, expected ",
                n - 1);
  };
  using WR = KvTable::WaitResult;
  switch (op) {
    case wire::kSet:
      need(3);
      table_.set(rq[1], rq[2]);
      return reply(wire::kOk);
    case wire::kGet: {
      need(3);
      WR r = WR::Ready;
      auto v = table_.get(rq[1], std::chrono::milliseconds(parse_int(rq[2], "timeout")), &r);
      if (v) return reply(wire::kOk, std::move(*v));
      return r == WR::Stopped ? reply(wire::kStopping) : reply(wire::kTimedOut, rq[1]);
    }
    case wire::kAdd:
      need(3);
      return reply(wire::kOk, std::to_string(table_.add(rq[1], parse_int(rq[2], "add delta"))));
    case wire::kCompareSet:
      need(4);
      return reply(wire::kOk, table_.compare_set(rq[1], rq[2], rq[3]));
    case wire::kCheck:
      return reply(wire::kOk,
                   table_.check(std::vector<std::string>(rq.begin() + 1, rq.end())) ? "1" : "0");
    case wire::kDelete: need(2); return reply(wire::kOk, table_.erase(rq[1]) ? "1" : "0");
    case wire::kWait: {
      need(2);
      std::vector<std::string> missing;
      WR r = table_.wait(std::vector<std::string>(rq.begin() + 2, rq.end()),
                         std::chrono::milliseconds(parse_int(rq[1], "timeout")), &missing);
      if (r == WR::Ready) return reply(wire::kOk);
      if (r == WR::Stopped) return reply(wire::kStopping);
      Frame out = reply(wire::kTimedOut);
      out.insert(out.end(), missing.begin(), missing.end());
      return out;
    }
    case wire::kNumKeys: return reply(wire::kOk, std::to_string(table_.size()));
    default: BRASA_CHECK(false, "unknown request '", op, "'");
  }
  return reply(wire::kError, "unreachable");
}

}  // namespace brasa::distributed::detail
