// Heartbeat counters and liveness leases in the store, and the diagnosis of a lost rank.

#include "distributed/heartbeat.h"

#include <vector>

#include "brasa/distributed/prefix_store.h"
#include "brasa/distributed/tcp_store.h"

namespace brasa::distributed::detail {
namespace {
std::string key(int rank) { return "heartbeat/" + std::to_string(rank); }
std::string alive_key(int rank) { return "alive/" + std::to_string(rank); }

// Takes the lease "alive/<rank>" on the TCPStore beneath any PrefixStores (with their prefixes,
// so that `store` reads it back under the same name); false for other stores.
bool lease_alive_key(Store* store, int rank) {
  std::string full = alive_key(rank);
  while (auto* p = dynamic_cast<PrefixStore*>(store)) {
    full = p->prefix() + "/" + full;
    store = p->getUnderlyingStore().get();
  }
  auto* tcp = dynamic_cast<TCPStore*>(store);
  if (tcp == nullptr) return false;
  tcp->addWhileConnected(full);
  return true;
}
}  // namespace

Heartbeat::Heartbeat(IntrusivePtr<Store> store, int rank, int size, std::optional<int> server_rank,
                     std::chrono::milliseconds interval)
    : store_(std::move(store)),
      rank_(rank),
      size_(size),
      server_rank_(server_rank),
      interval_(interval) {
  leased_ = lease_alive_key(store_.get(), rank_);
  store_->add(key(rank_), 1);
  thread_ = std::thread([this] { loop(); });
}

Heartbeat::~Heartbeat() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Heartbeat::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!cv_.wait_for(lock, interval_, [this] { return stop_; })) {
    lock.unlock();
    try {
      store_->add(key(rank_), 1);
    } catch (...) {  // the store is gone: nothing left to report to
      return;
    }
    lock.lock();
  }
}

// The ranks whose lease count is back at 0 (a rank that never took one is not named).
std::string Heartbeat::closed_ranks() const {
  std::string lost;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_ || !store_->check({alive_key(r)}) || store_->add(alive_key(r), 0) != 0) continue;
    lost += (lost.empty() ? "rank " : ", rank ") + std::to_string(r);
  }
  return lost;
}

std::string Heartbeat::diagnose() const {
  auto sample = [&] {
    std::vector<int64_t> counts(static_cast<size_t>(size_));
    for (int r = 0; r < size_; ++r)
      counts[static_cast<size_t>(r)] = store_->check({key(r)}) ? store_->add(key(r), 0) : 0;
    return counts;
  };
  try {
    const auto before = sample();
    const auto deadline = std::chrono::steady_clock::now() + interval_ * 4;
    while (leased_ && std::chrono::steady_clock::now() < deadline) {
      const std::string closed = closed_ranks();
      if (!closed.empty()) {
        const bool one = closed.find(',') == std::string::npos;
        return closed + " stopped responding (" + (one ? "its" : "their") +
               " store connection closed: exited or killed)";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::this_thread::sleep_until(deadline);
    const auto after = sample();
    std::string lost;
    for (int r = 0; r < size_; ++r) {
      if (r == rank_ || after[static_cast<size_t>(r)] != before[static_cast<size_t>(r)]) continue;
      lost += (lost.empty() ? "rank " : ", rank ") + std::to_string(r);
    }
    return lost.empty() ? std::string() : lost + " stopped responding";
  } catch (const std::exception&) {
    if (server_rank_ && *server_rank_ != rank_) {
      const std::string r = "rank " + std::to_string(*server_rank_);
      return r + " stopped responding (the store server it hosts is unreachable: " + r +
             " exited or was killed)";
    }
    return "the store is unreachable (the process hosting its server, usually rank 0, is "
           "probably lost)";
  }
}

}  // namespace brasa::distributed::detail
