#pragma once
// TcpServer: the TCPStore daemon. Accepts on a background thread; each connection is served by its
// own thread against one KvTable (blocking get/wait park that thread). The destructor stops it:
// wakes waiters, shuts every socket down and joins every thread.

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "distributed/store/kv_table.h"
#include "distributed/store/socket.h"

namespace brasa::distributed::detail {

class TcpServer {
 public:
  /// Listens on host:port (0 = any free port). With `multi_tenant`, a live server of this process
  /// on the same non-zero port is shared instead of binding again.
  static std::shared_ptr<TcpServer> start(const std::string& host, uint16_t port,
                                          bool multi_tenant);
  TcpServer(Socket listener, std::string host);
  ~TcpServer();
  TcpServer(const TcpServer&) = delete;
  TcpServer& operator=(const TcpServer&) = delete;

  uint16_t port() const noexcept { return port_; }

 private:
  struct Connection {
    Socket socket;
    std::thread thread;
    std::atomic<bool> done{false};
  };

  void accept_loop();
  void serve(Connection* c);
  Frame handle(const Frame& request);
  void reap_finished();

  std::string host_;
  Socket listener_;
  uint16_t port_ = 0;
  int wake_[2] = {-1, -1};
  KvTable table_;
  std::mutex mutex_;
  std::list<Connection> connections_;
  bool stopping_ = false;
  std::thread acceptor_;
};

}  // namespace brasa::distributed::detail
