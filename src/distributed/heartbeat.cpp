// Heartbeat counters in the store and the diagnosis of a lost rank.

#include "distributed/heartbeat.h"

#include <vector>

namespace brasa::distributed::detail {
namespace {
std::string key(int rank) { return "heartbeat/" + std::to_string(rank); }
}  // namespace

Heartbeat::Heartbeat(IntrusivePtr<Store> store, int rank, int size,
                     std::chrono::milliseconds interval)
    : store_(std::move(store)), rank_(rank), size_(size), interval_(interval) {
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

std::string Heartbeat::diagnose() const {
  auto sample = [&] {
    std::vector<int64_t> counts(static_cast<size_t>(size_));
    for (int r = 0; r < size_; ++r)
      counts[static_cast<size_t>(r)] = store_->check({key(r)}) ? store_->add(key(r), 0) : 0;
    return counts;
  };
  try {
    const auto before = sample();
    std::this_thread::sleep_for(interval_ * 4);
    const auto after = sample();
    std::string lost;
    for (int r = 0; r < size_; ++r) {
      if (r == rank_ || after[static_cast<size_t>(r)] != before[static_cast<size_t>(r)]) continue;
      lost += (lost.empty() ? "rank " : ", rank ") + std::to_string(r);
    }
    return lost.empty() ? std::string() : lost + " stopped responding";
  } catch (const std::exception&) {
    return "the store on rank 0 is unreachable (rank 0 is probably lost)";
  }
}

}  // namespace brasa::distributed::detail
