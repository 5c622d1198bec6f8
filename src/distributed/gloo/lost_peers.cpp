// ProcessGroupGloo and a lost peer: failing the ops in flight and interrupting their Gloo waits.
//
// Note [Lost peers]
// When a rank dies, Gloo usually fails the survivor's op within milliseconds (the socket breaks,
// the pair signals every pending operation). Not always: Debian's Gloo (0.0~git20220518) does
// not wake an unbound send whose write was still queued on the broken pair
// (tcp::Pair::signalException signals the bound buffers among the queued writes, not the unbound
// ones), so UnboundBuffer::waitSend sleeps until the op's timeout (300 s by default); about 1
// trial in 30 of tests/distributed/kill_mid_allreduce.py hung there.
//
// So the group does not rely on Gloo alone. init_process_group connects peer_loss_handler() to
// the store's liveness leases (Note [Liveness leases]): the moment a rank's store connection
// closes, every group with that rank hears "rank N stopped responding (...)". Each op still in
// flight `grace` later is failed by the group's monitor thread with a DistributedError naming the
// op and the lost rank, whatever Gloo is doing: the caller's wait() returns at once. The grace
// lets an op that is about to succeed succeed: a rank that exits normally right after its last
// collective has sent everything its peers need, and their ops finish on their own. A rank that
// left through destroy_process_group or the end of its program says so in the store first
// ("done/<rank>"), and gets a long grace (1 s), since its peers' ops are expected to finish; a
// rank that vanished without saying so (killed, crashed) gets a short one (10 ms).
//
// The worker thread blocked in Gloo is then freed where brasa can reach Gloo: the collectives pass
// Gloo unbound buffers the op owns (AbortableWaits), registered with its OpAbort, and the
// monitor calls abortWaitSend/abortWaitRecv on them every 2 ms (then every 50 ms) until the
// worker leaves the op. Gloo's algorithm then meets the broken pair on its next send or recv and
// throws, or returns; either way AbortableWaits::check() keeps a partial result from being used,
// and the worker's own completion of the Work is ignored (the first completion wins). A wait on
// a buffer Gloo allocates itself (the ring's scratch buffer, barrier's) is woken by Gloo when the
// broken pair is its peer; one on a healthy pair, or an op stuck for another reason, keeps its
// worker until Gloo's timeout: the group's destructor waits 200 ms for such a worker and then
// detaches it. A detached worker holds the group's Impl, and its op holds the Gloo context and the
// tensors, so nothing it touches is freed under it; it does not keep the process from exiting.
// An op failed while still queued is never started.

#include <gloo/transport/unbound_buffer.h>

#include <algorithm>

#include "brasa/distributed/error.h"
#include "distributed/gloo/gloo_impl.h"

namespace brasa::distributed {

namespace gloo_backend {

void OpAbort::add(::gloo::transport::UnboundBuffer* buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  buffers_.push_back(buffer);
  if (aborted_) {
    buffer->abortWaitSend();
    buffer->abortWaitRecv();
  }
}

void OpAbort::remove(::gloo::transport::UnboundBuffer* buffer) {
  std::lock_guard<std::mutex> lock(mutex_);
  buffers_.erase(std::remove(buffers_.begin(), buffers_.end(), buffer), buffers_.end());
}

void OpAbort::abort_waits() {
  std::lock_guard<std::mutex> lock(mutex_);
  aborted_ = true;
  for (auto* b : buffers_) {
    b->abortWaitSend();
    b->abortWaitRecv();
  }
}

bool OpAbort::aborted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return aborted_;
}

std::unique_ptr<::gloo::transport::UnboundBuffer> AbortableWaits::buffer(void* ptr, size_t nbytes) {
  auto b = context_->createUnboundBuffer(ptr, nbytes);
  buffers_.push_back(b.get());
  abort_->add(b.get());
  return b;
}

AbortableWaits::~AbortableWaits() {
  for (auto* b : buffers_) abort_->remove(b);
}

void AbortableWaits::check() const {
  if (abort_->aborted()) {
    throw DistributedError(
        "ProcessGroupGloo: the operation was abandoned after a peer was lost (its Work already "
        "holds the error)");
  }
}

}  // namespace gloo_backend

void ProcessGroupGloo::Impl::peer_lost(const std::string& why, std::chrono::milliseconds g) {
  std::lock_guard<std::mutex> lock(mutex);
  if (monitor_stop) return;  // the group is gone
  const auto from = Clock::now() + g;
  if (!lost_why || g < grace) grace = g;
  if (!lost_why || from < fail_from) {
    lost_why = why;
    fail_from = from;
  }
  if (!monitor.joinable()) monitor = std::thread([this] { monitor_loop(); });
  monitor_cv.notify_all();
}

void ProcessGroupGloo::Impl::monitor_loop() {
  constexpr auto kPokeFast = std::chrono::milliseconds(2);
  constexpr auto kPokeSlow = std::chrono::milliseconds(50);
  constexpr auto kFastFor = std::chrono::milliseconds(100);
  std::unique_lock<std::mutex> lock(mutex);
  std::vector<std::pair<IntrusivePtr<Work>, Clock::time_point>> abandoned_at;
  while (!monitor_stop) {
    const auto now = Clock::now();
    std::vector<std::pair<IntrusivePtr<Work>, std::string>> to_fail;
    std::vector<std::shared_ptr<gloo_backend::OpAbort>> to_abort;
    std::optional<Clock::time_point> next;
    auto soon = [&](Clock::time_point t) { next = next ? std::min(*next, t) : t; };
    for (auto& f : in_flight) {
      if (!f.abandoned) {
        const auto doom = std::max(fail_from, f.enqueued + grace);
        if (now < doom) {
          soon(doom);
          continue;
        }
        f.abandoned = true;
        to_fail.emplace_back(f.work, f.label);
        abandoned_at.emplace_back(f.work, now);
      }
      to_abort.push_back(f.abort);
      auto it = std::find_if(abandoned_at.begin(), abandoned_at.end(),
                             [&](const auto& a) { return a.first == f.work; });
      const bool fast = it == abandoned_at.end() || now - it->second < kFastFor;
      soon(now + (fast ? kPokeFast : kPokeSlow));
    }
    std::erase_if(abandoned_at, [&](const auto& a) {
      return std::none_of(in_flight.begin(), in_flight.end(),
                          [&](const InFlight& f) { return f.work == a.first; });
    });
    const std::string why = lost_why.value_or("a peer was lost");
    lock.unlock();
    for (auto& [work, label] : to_fail) {
      work->finish(std::make_exception_ptr(
          DistributedError(label + ": a peer was lost while the operation was in flight: " + why +
                           "; the group is unusable, recreate it")));
    }
    for (auto& a : to_abort) a->abort_waits();
    lock.lock();
    if (monitor_stop) break;
    if (next) {
      monitor_cv.wait_until(lock, *next);
    } else {
      monitor_cv.wait(lock);
    }
  }
}

std::function<void(const std::string&, std::chrono::milliseconds)>
ProcessGroupGloo::peer_loss_handler() const {
  std::weak_ptr<Impl> weak = impl_;
  return [weak](const std::string& why, std::chrono::milliseconds grace) {
    if (auto impl = weak.lock()) impl->peer_lost(why, grace);
  };
}

}  // namespace brasa::distributed
