#pragma once
// Heartbeat: every rank of the default group bumps a counter in the store every 100 ms, so that
// when a connection breaks the survivors can tell which rank stopped (a collective only sees a
// broken socket).

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "brasa/distributed/store.h"

namespace brasa::distributed::detail {

class Heartbeat {
 public:
  Heartbeat(IntrusivePtr<Store> store, int rank, int size,
            std::chrono::milliseconds interval = std::chrono::milliseconds(100));
  ~Heartbeat();
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

  /// Samples every rank's counter twice, a few intervals apart; names the ranks whose counter did
  /// not move ("rank 1 stopped responding"), or says the store itself is unreachable.
  std::string diagnose() const;

 private:
  void loop();

  IntrusivePtr<Store> store_;
  int rank_, size_;
  std::chrono::milliseconds interval_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace brasa::distributed::detail
