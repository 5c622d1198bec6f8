#include "brasa/distributed/tcp_store.h"

#include <sys/socket.h>

#include <cerrno>
#include <charconv>
#include <mutex>
#include <thread>

#include "distributed/store/socket.h"
#include "distributed/store/store_util.h"
#include "distributed/store/tcp_server.h"
#include "distributed/store/tcp_watcher.h"
#include "distributed/store/tcp_wire.h"

namespace brasa::distributed {
namespace detail {

// One connection, one request in flight (a mutex): a get blocked on the server holds the
// connection, as in c10d. After a lost or desynchronised reply the connection is poisoned and
// every later call fails at once with the first cause.
class TcpClient {
 public:
  TcpClient(const std::string& host, uint16_t port, std::chrono::milliseconds timeout)
      : where_(host + ":" + std::to_string(port)),
        socket_(connect_with_retry(host, port, timeout)) {}

  const std::string& where() const { return where_; }

  /// Sends `request` and returns the reply's fields after the status. `what` names the call for
  /// errors; `reply_within` bounds the wait for the reply (zero: forever).
  Frame call(const Frame& request, const std::string& what,
             std::chrono::milliseconds reply_within) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!broken_.empty()) fail(what, broken_);
    IoStatus st = write_frame(socket_.fd(), request);
    Frame reply;
    if (st.ok()) {
      std::optional<std::chrono::steady_clock::time_point> deadline;
      if (reply_within.count() > 0) deadline = std::chrono::steady_clock::now() + reply_within;
      st = read_frame(socket_.fd(), reply, deadline);
    }
    if (st.ok() && (reply.empty() || reply[0].size() != 1)) st = {IoStatus::Failed, EPROTO};
    if (!st.ok()) {
      broken_ = st.kind == IoStatus::TimedOut
                    ? "no reply within " + std::to_string(reply_within.count()) + " ms"
                    : "lost the connection to the server: " + st.describe();
      ::shutdown(socket_.fd(), SHUT_RDWR);
      if (st.kind == IoStatus::TimedOut) {
        throw DistributedTimeoutError("TCPStore: " + what + " on " + where_ + ": " + broken_);
      }
      broken_code_ = st.kind == IoStatus::Failed && st.error != 0 ? st.error : ECONNRESET;
      fail(what, broken_);
    }
    char status = reply[0][0];
    reply.erase(reply.begin());
    if (status == wire::kOk || status == wire::kTimedOut) {
      reply.insert(reply.begin(), std::string(1, status));
      return reply;
    }
    if (status == wire::kStopping) fail(what, "the server is shutting down");
    fail(what, "the server answered: " + (reply.empty() ? std::string("?") : reply[0]));
  }

  [[noreturn]] void fail(const std::string& what, const std::string& cause) const {
    const std::string msg = "TCPStore: " + what + " failed on " + where_ + " (" + cause + ")";
    if (broken_code_ != 0) throw_network_error(msg, {broken_code_, std::system_category()});
    throw DistributedError(msg);
  }

 private:
  std::string where_;
  Socket socket_;
  std::mutex mutex_;
  std::string broken_;
  int broken_code_ = 0;  // errno of a lost connection (then errors are DistributedNetworkError)
};

}  // namespace detail

namespace {

using detail::Frame;
using Ms = std::chrono::milliseconds;
// The server answers a blocking request by its own clock; the client allows it a margin more.
Ms reply_budget(Ms timeout) {
  if (timeout.count() <= 0) return Ms(0);
  return timeout + std::max(Ms(1000), timeout / 10);
}

std::string call_name(const char* op, const std::string& key) {
  return std::string(op) + "(\"" + key + "\")";
}

int64_t to_int(const std::string& s, const std::string& where) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    throw DistributedError("TCPStore: malformed integer reply \"" + s + "\" from " + where);
  }
  return v;
}

}  // namespace

TCPStore::TCPStore(std::string host, const TCPStoreOptions& opts)
    : Store(opts.timeout), host_(std::move(host)), port_(opts.port), num_workers_(opts.numWorkers) {
  if (opts.isServer) {
    server_ = detail::TcpServer::start(host_, port_, opts.multiTenant);
    port_ = server_->port();
  }
  client_ = std::make_unique<detail::TcpClient>(host_, port_, opts.timeout);
  if (opts.waitWorkers) waitForWorkers();
}

TCPStore::TCPStore(const std::string& masterAddr, std::uint16_t masterPort,
                   std::optional<int> numWorkers, bool isServer, std::chrono::milliseconds timeout,
                   bool waitWorkers)
    : TCPStore(masterAddr,
               TCPStoreOptions{masterPort, isServer,
                               numWorkers && *numWorkers >= 0
                                   ? std::optional<std::size_t>(static_cast<size_t>(*numWorkers))
                                   : std::nullopt,
                               waitWorkers, timeout}) {}

// The client goes first so the server's threads see its connection close.
TCPStore::~TCPStore() {
  watcher_.reset();
  client_.reset();
}

void TCPStore::watchKey(const std::string& key, WatchKeyCallback callback) {
  BRASA_CHECK(callback, "TCPStore::watchKey(\"", key, "\"): the callback is empty");
  detail::TcpWatcher* watcher = nullptr;
  {
    std::lock_guard<std::mutex> lock(watcher_mutex_);
    if (!watcher_) watcher_ = std::make_unique<detail::TcpWatcher>(host_, port_, timeout_);
    watcher = watcher_.get();
  }
  watcher->watch(key, std::move(callback), reply_budget(timeout_));
}

void TCPStore::waitForWorkers() {
  if (!num_workers_) return;
  const std::string init_key = "init/";
  add(init_key, 1);
  if (!server_) return;
  auto deadline = std::chrono::steady_clock::now() + timeout_;
  while (true) {
    auto v = get(init_key);
    int64_t joined = to_int(detail::to_bytes(v), client_->where());
    if (joined >= static_cast<int64_t>(*num_workers_)) return;
    if (timeout_.count() > 0 && std::chrono::steady_clock::now() >= deadline) {
      throw DistributedTimeoutError(
          "TCPStore: timed out after " + std::to_string(timeout_.count()) +
          " ms waiting for workers at " + client_->where() + ": " + std::to_string(joined) +
          " of " + std::to_string(*num_workers_) + " joined");
    }
    std::this_thread::sleep_for(Ms(10));
  }
}

void TCPStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  client_->call({std::string(1, detail::wire::kSet), key, detail::to_bytes(value)},
                call_name("set", key), reply_budget(timeout_));
}

std::vector<uint8_t> TCPStore::get(const std::string& key) {
  Ms timeout = timeout_;
  Frame r =
      client_->call({std::string(1, detail::wire::kGet), key, std::to_string(timeout.count())},
                    call_name("get", key), reply_budget(timeout));
  if (r[0][0] == detail::wire::kTimedOut) {
    detail::throw_wait_timeout("TCPStore (" + client_->where() + ")", "get", {key}, timeout);
  }
  return detail::to_vector(r.at(1));
}

int64_t TCPStore::add(const std::string& key, int64_t value) {
  Frame r = client_->call({std::string(1, detail::wire::kAdd), key, std::to_string(value)},
                          call_name("add", key), reply_budget(timeout_));
  return to_int(r.at(1), client_->where());
}

int64_t TCPStore::addWhileConnected(const std::string& key) {
  Frame r = client_->call({std::string(1, detail::wire::kLease), key},
                          call_name("addWhileConnected", key), reply_budget(timeout_));
  return to_int(r.at(1), client_->where());
}

std::vector<uint8_t> TCPStore::compareSet(const std::string& key,
                                          const std::vector<uint8_t>& expected,
                                          const std::vector<uint8_t>& desired) {
  Frame r = client_->call({std::string(1, detail::wire::kCompareSet), key,
                           detail::to_bytes(expected), detail::to_bytes(desired)},
                          call_name("compareSet", key), reply_budget(timeout_));
  return detail::to_vector(r.at(1));
}

bool TCPStore::check(const std::vector<std::string>& keys) {
  Frame rq{std::string(1, detail::wire::kCheck)};
  rq.insert(rq.end(), keys.begin(), keys.end());
  Frame r = client_->call(rq, "check(" + detail::quote_keys(keys) + ")", reply_budget(timeout_));
  return r.at(1) == "1";
}

bool TCPStore::deleteKey(const std::string& key) {
  Frame r = client_->call({std::string(1, detail::wire::kDelete), key}, call_name("deleteKey", key),
                          reply_budget(timeout_));
  return r.at(1) == "1";
}

void TCPStore::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void TCPStore::wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  Frame rq{std::string(1, detail::wire::kWait), std::to_string(timeout.count())};
  rq.insert(rq.end(), keys.begin(), keys.end());
  Frame r = client_->call(rq, "wait(" + detail::quote_keys(keys) + ")", reply_budget(timeout));
  if (r[0][0] == detail::wire::kTimedOut) {
    detail::throw_wait_timeout("TCPStore (" + client_->where() + ")", "wait",
                               std::vector<std::string>(r.begin() + 1, r.end()), timeout);
  }
}

int64_t TCPStore::getNumKeys() {
  Frame r = client_->call({std::string(1, detail::wire::kNumKeys)}, "getNumKeys()",
                          reply_budget(timeout_));
  return to_int(r.at(1), client_->where());
}

}  // namespace brasa::distributed
