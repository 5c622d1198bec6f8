#pragma once
// TcpWatcher: TCPStore::watchKey's side of the wire. A second connection to the server, on which
// the watched keys are registered (H) and the server pushes each change (U); a reader thread runs
// the key's callback for each change, in the order the server's table changed.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "brasa/distributed/store.h"
#include "distributed/store/socket.h"

namespace brasa::distributed::detail {

class TcpWatcher {
 public:
  /// Connects to host:port (within `timeout`) and starts the reader thread. `on_broken`, if set,
  /// runs once on the reader thread when the connection to the server is lost (not when this
  /// watcher is destroyed), with the cause.
  TcpWatcher(const std::string& host, uint16_t port, std::chrono::milliseconds timeout,
             std::function<void(const std::string&)> on_broken = {});
  /// Closes the connection and joins the reader (a callback running now finishes first).
  ~TcpWatcher();
  TcpWatcher(const TcpWatcher&) = delete;
  TcpWatcher& operator=(const TcpWatcher&) = delete;

  /// Registers `callback` for `key` (replacing an earlier one, as in c10d) and returns once the
  /// server has acknowledged, so every later change reaches it. Throws DistributedError when the
  /// connection is lost, DistributedTimeoutError after `timeout` without an answer.
  void watch(const std::string& key, WatchKeyCallback callback, std::chrono::milliseconds timeout);

 private:
  void read_loop();

  std::string where_;
  Socket socket_;
  std::mutex mutex_;
  std::condition_variable acked_cv_;
  std::map<std::string, WatchKeyCallback> callbacks_;
  uint64_t sent_ = 0, acked_ = 0;
  std::string broken_;  // why the connection ended, once it has
  std::function<void(const std::string&)> on_broken_;
  std::atomic<bool> closing_{false};  // the destructor ends the connection
  std::thread reader_;
};

}  // namespace brasa::distributed::detail
