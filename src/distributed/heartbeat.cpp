// Heartbeat counters and liveness leases in the store, and the diagnosis of a lost rank.

#include "distributed/heartbeat.h"

#include <vector>

#include "brasa/distributed/prefix_store.h"
#include "brasa/distributed/tcp_store.h"
#include "distributed/store/tcp_watcher.h"

namespace brasa::distributed::detail {
namespace {
std::string key(int rank) { return "heartbeat/" + std::to_string(rank); }
std::string alive_key(int rank) { return "alive/" + std::to_string(rank); }
std::string done_key(int rank) { return "done/" + std::to_string(rank); }

// The TCPStore beneath any PrefixStores, and the prefix that `store` adds to a key ("a/b/"), or
// null for other stores.
TCPStore* tcp_beneath(Store* store, std::string& prefix) {
  prefix.clear();
  while (auto* p = dynamic_cast<PrefixStore*>(store)) {
    prefix = p->prefix() + "/" + prefix;
    store = p->getUnderlyingStore().get();
  }
  return dynamic_cast<TCPStore*>(store);
}

// Grace periods of Note [Lost peers].
constexpr auto kGraceKilled = std::chrono::milliseconds(10);
constexpr auto kGraceLeft = std::chrono::milliseconds(1000);
}  // namespace

std::chrono::milliseconds Heartbeat::grace(const LostRank& lost) {
  return lost.left ? kGraceLeft : kGraceKilled;
}

Heartbeat::Heartbeat(IntrusivePtr<Store> store, int rank, int size, std::optional<int> server_rank,
                     std::chrono::milliseconds interval)
    : store_(std::move(store)),
      rank_(rank),
      size_(size),
      server_rank_(server_rank),
      interval_(interval) {
  std::string prefix;
  TCPStore* tcp = tcp_beneath(store_.get(), prefix);
  leased_ = tcp != nullptr;
  if (leased_) {
    // A previous group of this run in this process may have left its "done" mark.
    store_->deleteKey(done_key(rank_));
    // Takes the lease under the prefixes, so that `store_` reads it back under alive_key(rank).
    tcp->addWhileConnected(prefix + alive_key(rank_));
    try {
      start_watch(*tcp, prefix);
    } catch (const std::exception&) {  // no watch: errors still name the rank (diagnose)
      watch_.reset();
    }
  }
  store_->add(key(rank_), 1);
  thread_ = std::thread([this] { loop(); });
}

// Watches the other ranks' leases and "done" marks on a connection of its own (Note [Lost peers]).
void Heartbeat::start_watch(TCPStore& tcp, const std::string& prefix) {
  left_.assign(static_cast<size_t>(size_), false);
  std::function<void(const std::string&)> on_broken;
  if (server_rank_ && *server_rank_ != rank_) {
    on_broken = [this](const std::string&) { lost(*server_rank_, true); };
  }
  watch_ = std::make_unique<TcpWatcher>(tcp.getHost(), tcp.getPort(),
                                        std::chrono::milliseconds(10000), std::move(on_broken));
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    watch_->watch(
        prefix + done_key(r),
        [this, r](const std::optional<std::string>&, const std::optional<std::string>& now) {
          if (!now) return;
          std::lock_guard<std::mutex> lock(loss_mutex_);
          left_[static_cast<size_t>(r)] = true;
        },
        std::chrono::milliseconds(10000));
    watch_->watch(
        prefix + alive_key(r),
        [this, r](const std::optional<std::string>&, const std::optional<std::string>& now) {
          if (now && *now == "0") lost(r, false);
        },
        std::chrono::milliseconds(10000));
  }
  // What is already in the store is not read: a count at 0 or a "done" mark may be left by a
  // previous group of the same run over the same store. (A rank lost before these watches were
  // registered, during init_process_group, is still named by diagnose() once Gloo fails.)
}

void Heartbeat::lost(int rank, bool server_unreachable) {
  std::vector<LossListener> listeners;
  LostRank event;
  {
    std::lock_guard<std::mutex> lock(loss_mutex_);
    for (const auto& l : lost_)
      if (l.rank == rank) return;  // already announced
    const std::string r = "rank " + std::to_string(rank);
    event.rank = rank;
    event.left = left_[static_cast<size_t>(rank)];
    if (event.left) {
      event.why = r + " left the group (it exited normally)";
    } else if (server_unreachable) {
      event.why = r + " stopped responding (the store server it hosts is unreachable: " + r +
                  " exited or was killed)";
    } else {
      event.why = r + " stopped responding (its store connection closed: exited or killed)";
    }
    lost_.push_back(event);
    listeners = listeners_;
  }
  loss_cv_.notify_all();
  for (const auto& listener : listeners) listener(event);
}

void Heartbeat::add_loss_listener(LossListener listener) {
  std::vector<LostRank> already;
  {
    std::lock_guard<std::mutex> lock(loss_mutex_);
    listeners_.push_back(listener);
    already = lost_;
  }
  for (const auto& l : already) listener(l);
}

Heartbeat::~Heartbeat() {
  if (watch_) {
    try {  // Note [Lost peers]: tells the peers this rank is leaving, before its lease goes
      store_->set(done_key(rank_), std::string("1"));
    } catch (...) {  // NOLINT(bugprone-empty-catch): the store is gone; the peers see that
    }
    watch_.reset();
  }
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
  {  // what the watch already heard (Note [Lost peers]) is the first loss: no store round trip
    std::lock_guard<std::mutex> lock(loss_mutex_);
    if (!lost_.empty()) return lost_.front().why;
  }
  try {
    const auto before = sample();
    const auto deadline = std::chrono::steady_clock::now() + interval_ * 4;
    while (leased_ && std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard<std::mutex> lock(loss_mutex_);
        if (!lost_.empty()) return lost_.front().why;
      }
      const std::string closed = closed_ranks();
      if (!closed.empty()) {
        const bool one = closed.find(',') == std::string::npos;
        return closed + " stopped responding (" + (one ? "its" : "their") +
               " store connection closed: exited or killed)";
      }
      std::unique_lock<std::mutex> lock(loss_mutex_);
      loss_cv_.wait_for(lock, std::chrono::milliseconds(2), [this] { return !lost_.empty(); });
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
