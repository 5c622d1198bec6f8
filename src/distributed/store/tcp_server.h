#pragma once
// TcpServer: the TCPStore daemon. Accepts on a background thread; each connection is served by its
// own thread against one KvTable (blocking get/wait park that thread). The destructor stops it:
// wakes waiters, shuts every socket down and joins every thread. Watch connections (wire op H)
// get a U frame for each change of a key they watch: the table's observer queues the change under
// the table's lock, and the connection thread that made it sends the queue out after its reply.
// A lease (wire op L) adds 1 to a counter key for as long as its connection stays open: the
// connection's thread takes it back the moment the connection closes (Note [Liveness leases]).

#include <atomic>
#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

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
    bool watching = false;            // guarded by watch_mutex_
    std::vector<std::string> leases;  // keys given back when the connection closes (its thread)
  };

  void accept_loop();
  void serve(Connection* c);
  Frame handle(const Frame& request);
  void reap_finished();
  Frame watch(Connection* c, const std::string& key);
  Frame lease(Connection* c, const std::string& key);
  void unwatch(Connection* c);
  void queue_change(const std::string& key, const std::optional<Bytes>& old,
                    const std::optional<Bytes>& now);
  void send_changes();
  bool reply_to(Connection* c, const Frame& response);

  std::string host_;
  Socket listener_;
  uint16_t port_ = 0;
  int wake_[2] = {-1, -1};
  KvTable table_;
  std::mutex mutex_;
  std::list<Connection> connections_;
  bool stopping_ = false;
  std::mutex watch_mutex_;  // after the table's lock, never before it
  std::unordered_map<std::string, std::vector<Connection*>> watchers_;
  std::deque<Frame> changes_;
  std::thread acceptor_;
};

}  // namespace brasa::distributed::detail
