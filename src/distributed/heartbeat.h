#pragma once
// Heartbeat: every rank of the default group bumps a counter in the store every 100 ms, so that
// when a connection breaks the survivors can tell which rank stopped (a collective only sees a
// broken socket).
//
// Note [Liveness leases]
// Absence of progress is slow evidence: a counter that did not move for a while may belong to a
// rank that is merely descheduled, so the heartbeat comparison must wait several periods (0.4 s).
// Over a TCPStore there is positive evidence, and it comes within milliseconds: each rank holds a
// lease on the key "alive/<rank>" (TCPStore::addWhileConnected, wire op L), a counter the server
// raises by 1 on that request and lowers by 1 as soon as the connection that made it closes. The
// connection lives as long as the rank's store, and the kernel closes it when the process exits
// or is killed, so a count back at 0 says the rank is gone. diagnose() takes a loss the watch
// below already announced, else polls those counters (a few store round trips every 2 ms, woken
// early by an announcement) and falls back to the heartbeat comparison at the end of
// its wait: for a rank that is hung but alive (its lease holds), and for stores without a server
// (FileStore, HashStore), where there are no leases. When the lost rank hosts the server (rank 0
// under init_process_group), the store calls themselves fail at once, which names rank 0.
//
// The same leases also announce a loss before anyone asks (Note [Lost peers]): the heartbeat
// watches every other rank's "alive/<rank>" and "done/<rank>" on a connection of its own
// (TcpWatcher, pushed by the server), and its listeners hear of a rank whose count drops to 0, or
// of the server's rank when that connection breaks. A rank that leaves normally (this object's
// destructor: destroy_process_group or the end of the program) first sets "done/<rank>", so its
// peers can tell it from a killed one.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "brasa/distributed/store.h"

namespace brasa::distributed {
class TCPStore;
}

namespace brasa::distributed::detail {

class TcpWatcher;

class Heartbeat {
 public:
  /// `server_rank`: the rank whose process serves the store, when known.
  Heartbeat(IntrusivePtr<Store> store, int rank, int size, std::optional<int> server_rank,
            std::chrono::milliseconds interval = std::chrono::milliseconds(100));
  ~Heartbeat();
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

  /// Names the lost ranks ("rank 1 stopped responding (...)"): those whose store connection closed
  /// (Note [Liveness leases]), else those whose heartbeat counter did not move for four intervals;
  /// or says the store itself is unreachable. Empty when no rank looks lost.
  std::string diagnose() const;

  /// A rank the liveness watch found gone.
  struct LostRank {
    int rank;
    bool left;        // it said it was leaving ("done/<rank>"): exited normally
    std::string why;  // "rank 1 stopped responding (...)"
  };
  using LossListener = std::function<void(const LostRank&)>;
  /// How long the ops in flight may still finish after `lost` (Note [Lost peers]): 10 ms after a
  /// rank vanished, 1 s after one that left normally.
  static std::chrono::milliseconds grace(const LostRank& lost);
  /// Calls `listener` for each rank lost from now on (on the watch's thread), and at once for
  /// those already lost. Does nothing without leases (a store with no server).
  void add_loss_listener(LossListener listener);

 private:
  void loop();
  std::string closed_ranks() const;
  void start_watch(TCPStore& tcp, const std::string& prefix);
  void lost(int rank, bool server_unreachable);

  IntrusivePtr<Store> store_;
  int rank_, size_;
  std::optional<int> server_rank_;
  std::chrono::milliseconds interval_;
  bool leased_ = false;  // the store supports leases (a TCPStore, maybe under PrefixStores)
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;

  mutable std::mutex loss_mutex_;
  mutable std::condition_variable loss_cv_;  // a loss was announced
  std::vector<LossListener> listeners_;
  std::vector<LostRank> lost_;
  std::vector<bool> left_;             // saw "done/<rank>"
  std::unique_ptr<TcpWatcher> watch_;  // Note [Lost peers]; reset first by the destructor
};

}  // namespace brasa::distributed::detail
