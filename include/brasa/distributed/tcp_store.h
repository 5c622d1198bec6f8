#pragma once
// TCPStore: a Store served over TCP by one process (the server, usually rank 0 or the launcher)
// and reached by every process, the server's included, through its own connection.
// c10d::TCPStore / c10d::TCPStoreOptions.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "brasa/distributed/store.h"

namespace brasa::distributed {

namespace detail {
class TcpServer;
class TcpClient;
class TcpWatcher;
}  // namespace detail

/// Fields in libtorch's order, so `TCPStoreOptions{port, isServer, numWorkers}` reads the same.
struct TCPStoreOptions {
  static constexpr std::uint16_t kDefaultPort = 29500;

  std::uint16_t port = kDefaultPort;  // 0 with isServer: any free port (see TCPStore::getPort)
  bool isServer = false;
  std::optional<std::size_t> numWorkers = std::nullopt;
  bool waitWorkers = true;  // the server's constructor waits for numWorkers instances
  std::chrono::milliseconds timeout = Store::kDefaultTimeout;
  bool multiTenant = false;  // servers of one process on one port are shared
};

class BRASA_API TCPStore : public Store {
 public:
  /// Starts the server when opts.isServer (listening on host:opts.port), then connects to
  /// host:port, retrying until opts.timeout (DistributedTimeoutError "TCPStore: could not connect
  /// to HOST:PORT within N ms (cause)"); then, with numWorkers and waitWorkers, registers and
  /// (server only) waits for numWorkers instances to register.
  explicit TCPStore(std::string host, const TCPStoreOptions& opts = {});
  /// The older c10d constructor.
  TCPStore(const std::string& masterAddr, std::uint16_t masterPort,
           std::optional<int> numWorkers = std::nullopt, bool isServer = false,
           std::chrono::milliseconds timeout = kDefaultTimeout, bool waitWorkers = true);
  ~TCPStore() override;

  using Store::set;
  void set(const std::string& key, const std::vector<uint8_t>& value) override;
  /// Blocks on the server until `key` exists or getTimeout() passes (DistributedTimeoutError
  /// naming the key). A lost server raises DistributedError naming host:port at once.
  std::vector<uint8_t> get(const std::string& key) override;
  int64_t add(const std::string& key, int64_t value) override;
  std::vector<uint8_t> compareSet(const std::string& key, const std::vector<uint8_t>& expected,
                                  const std::vector<uint8_t>& desired) override;
  bool check(const std::vector<std::string>& keys) override;
  bool deleteKey(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) override;
  /// Runs `callback(old, new)` on a thread of this store for each later change of `key` (create:
  /// old is nullopt; delete: new is nullopt), until this store is destroyed. A second watchKey of
  /// the same key replaces the callback. Uses a second connection to the server.
  void watchKey(const std::string& key, WatchKeyCallback callback) override;
  /// All keys of the server, including the worker counter "init/" when numWorkers is set.
  int64_t getNumKeys() override;

  /// brasa: adds 1 to the integer at `key` for as long as this store's connection to the server
  /// stays open, i.e. until the store is destroyed or its process exits or is killed, and returns
  /// the count. A count back at 0 means every holder has gone (Note [Liveness leases] in
  /// src/distributed/heartbeat.h).
  int64_t addWhileConnected(const std::string& key);
  /// Registers this instance in the worker counter; the server waits until numWorkers have.
  void waitForWorkers();
  const std::string& getHost() const noexcept { return host_; }
  /// The server's port (the bound one when it was started with port 0).
  std::uint16_t getPort() const noexcept { return port_; }

 private:
  std::string host_;
  std::uint16_t port_;
  std::optional<std::size_t> num_workers_;
  std::shared_ptr<detail::TcpServer> server_;
  std::unique_ptr<detail::TcpClient> client_;
  std::mutex watcher_mutex_;
  std::unique_ptr<detail::TcpWatcher> watcher_;  // made by the first watchKey
};

}  // namespace brasa::distributed
