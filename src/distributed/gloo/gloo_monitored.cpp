// ProcessGroupGloo's coordination through the store: monitoredBarrier (which names the ranks that
// did not arrive) and the group's sequence number.

#include <random>

#include "distributed/gloo/gloo_impl.h"

namespace brasa::distributed {

namespace {
using Ms = std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// c10d::kSeqNumStoreKey
constexpr const char* kSeqNumStoreKey = "SEQ_NUM_STORE_KEY";
}  // namespace

void ProcessGroupGloo::monitoredBarrier(const BarrierOptions& opts, bool waitAllRanks) {
  const Ms timeout = impl_->resolve(opts.timeout);
  BRASA_CHECK(timeout.count() > 0,
              "ProcessGroupGloo::monitoredBarrier: expected a timeout > 0, got ", timeout.count(),
              " ms");
  Store& store = *impl_->store;
  uint64_t n = 0;
  {
    std::lock_guard<std::mutex> lock(impl_->mutex);
    n = impl_->monitored_barriers++;
  }
  const std::string base = "monitored_barrier/" + std::to_string(n) + "/";
  auto arrived = [&](int r) { return base + "arrived/" + std::to_string(r); };
  auto released = [&](int r) { return base + "released/" + std::to_string(r); };
  if (rank_ != 0) {
    store.set(arrived(rank_), std::string("1"));
    try {
      store.wait({released(rank_)}, timeout);
    } catch (const DistributedTimeoutError&) {
      BRASA_THROW(distributed::DistributedTimeoutError, "[Rank ", rank_,
                  "]: monitoredBarrier: rank 0 did not release this rank within ", timeout.count(),
                  " ms (rank 0 found a rank missing, or is itself stalled)");
    }
    store.deleteKey(released(rank_));
    return;
  }
  const auto deadline = Clock::now() + timeout;
  std::vector<int> missing;
  for (int r = 1; r < size_; ++r) {
    const auto left = std::chrono::duration_cast<Ms>(deadline - Clock::now());
    bool here = false;
    if (left.count() > 0) {
      try {
        store.wait({arrived(r)}, left);
        here = true;
      } catch (const DistributedTimeoutError&) {
      }
    } else {
      here = store.check({arrived(r)});
    }
    if (here) continue;
    missing.push_back(r);
    if (!waitAllRanks) break;
  }
  if (!missing.empty()) {
    std::string ranks;
    for (size_t i = 0; i < missing.size(); ++i) {
      ranks += (i ? ", " : "") + std::to_string(missing[i]);
    }
    BRASA_THROW(distributed::DistributedTimeoutError, "[Rank 0]: Rank",
                missing.size() > 1 ? "s " : " ", ranks, " failed to pass monitoredBarrier in ",
                timeout.count(), " ms");
  }
  for (int r = 1; r < size_; ++r) {
    store.deleteKey(arrived(r));
    store.set(released(r), std::string("1"));
  }
}

void ProcessGroupGloo::setSequenceNumberForGroup() {
  Store& store = *impl_->store;
  uint64_t seq = 0;
  if (rank_ == 0) {
    seq = 1 + std::random_device{}() % 1000000000u;
    store.set(kSeqNumStoreKey, std::to_string(seq));
  } else {
    store.wait({kSeqNumStoreKey}, impl_->timeout);
    const std::string v = store.get_string(kSeqNumStoreKey);
    try {
      seq = std::stoull(v);
    } catch (const std::exception&) {
      BRASA_THROW(distributed::DistributedError,
                  "ProcessGroupGloo::setSequenceNumberForGroup: expected a decimal number at \"",
                  kSeqNumStoreKey, "\", got \"", v, "\"");
    }
  }
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->sequence_number = seq;
}

uint64_t ProcessGroupGloo::getSequenceNumberForGroup() {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->sequence_number.value_or(0);
}

}  // namespace brasa::distributed
