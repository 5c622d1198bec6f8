#pragma once
// The private state of ProcessGroupGloo: Gloo contexts (one per device), the FIFO work queue and
// its worker threads, and the collective tag counter.

#include <gloo/context.h>
#include <gloo/transport/device.h>
#include <gloo/transport/unbound_buffer.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "brasa/distributed/process_group_gloo.h"

namespace brasa::distributed {

struct GlooDevice {
  std::shared_ptr<::gloo::transport::Device> device;
};

namespace gloo_backend {

/// The Gloo waits of one op that a lost peer may leave hanging (Note [Lost peers]): the op's body
/// registers the unbound buffers it owns; once the op is abandoned, abort_waits() wakes their
/// waitSend/waitRecv (again on every call: Gloo clears the flag after each interrupted wait).
class OpAbort {
 public:
  void add(::gloo::transport::UnboundBuffer* buffer);
  void remove(::gloo::transport::UnboundBuffer* buffer);
  void abort_waits();
  bool aborted() const;

 private:
  mutable std::mutex mutex_;
  std::vector<::gloo::transport::UnboundBuffer*> buffers_;
  bool aborted_ = false;
};

/// What a queued op's body gets: its context, tag, timeout, and a label for error messages.
struct OpContext {
  std::shared_ptr<::gloo::Context> context;
  uint32_t tag;
  std::chrono::milliseconds timeout;
  int rank;
  int size;
  std::shared_ptr<OpAbort> abort;
};

/// Registers the unbound buffers an op's body hands Gloo with the op's OpAbort, for this scope
/// (declare it after the Gloo options that own the buffers, so that it unregisters them before
/// they are destroyed). check() throws once the op was abandoned, so that an interrupted Gloo
/// algorithm's partial result is not used.
class AbortableWaits {
 public:
  explicit AbortableWaits(const OpContext& c) : context_(c.context), abort_(c.abort) {}
  ~AbortableWaits();
  AbortableWaits(const AbortableWaits&) = delete;
  AbortableWaits& operator=(const AbortableWaits&) = delete;
  /// A Gloo unbound buffer over [ptr, ptr + nbytes), registered.
  std::unique_ptr<::gloo::transport::UnboundBuffer> buffer(void* ptr, size_t nbytes);
  void check() const;

 private:
  std::shared_ptr<::gloo::Context> context_;
  std::shared_ptr<OpAbort> abort_;
  std::vector<::gloo::transport::UnboundBuffer*> buffers_;
};

using OpBody = std::function<void(const OpContext&)>;

/// Runs `body`, translating Gloo's exceptions into DistributedError/DistributedTimeoutError
/// prefixed with `label` (op, rank, tag); `diagnose`, if set, names the lost rank of a broken
/// connection. brasa errors pass through.
void run_translating(const std::string& label, std::chrono::milliseconds timeout,
                     const std::function<void()>& body,
                     const std::function<std::string()>& diagnose = {});

}  // namespace gloo_backend

struct ProcessGroupGloo::Impl {
  using Clock = std::chrono::steady_clock;
  struct Entry {
    IntrusivePtr<Work> work;
    std::string label;
    gloo_backend::OpContext ctx;
    gloo_backend::OpBody body;
  };
  /// An op queued or running, in FIFO order.
  struct InFlight {
    IntrusivePtr<Work> work;
    std::string label;
    Clock::time_point enqueued;
    std::shared_ptr<gloo_backend::OpAbort> abort;
    bool abandoned = false;  // failed by the monitor (Note [Lost peers])
  };

  int rank = 0;
  int size = 0;
  std::chrono::milliseconds timeout{0};
  std::vector<std::shared_ptr<::gloo::Context>> contexts;

  // The group, for failure diagnosis; null once it is destroyed (a detached worker may outlive
  // it). Held during a diagnosis so that the destructor waits for one in progress.
  std::mutex owner_mutex;
  const ProcessGroup* owner = nullptr;

  std::mutex mutex;
  std::condition_variable cv;           // workers: the queue, stopping
  std::condition_variable finished_cv;  // the destructor: a worker left
  std::deque<Entry> queue;
  std::vector<InFlight> in_flight;
  std::vector<std::thread> workers;
  std::vector<bool> worker_exited;
  bool stopping = false;
  uint32_t next_tag = 0;
  IntrusivePtr<Store> store;                // the group's store (monitoredBarrier, sequence)
  std::optional<uint64_t> sequence_number;  // set by setSequenceNumberForGroup; +1 per op
  uint64_t monitored_barriers = 0;          // names each monitoredBarrier's keys

  // Note [Lost peers]: set by peer_lost; the monitor fails ops still in flight at
  // max(fail_from, their enqueue time + grace).
  std::optional<std::string> lost_why;
  Clock::time_point fail_from;
  std::chrono::milliseconds grace{0};
  std::condition_variable monitor_cv;
  std::thread monitor;
  bool monitor_stop = false;

  /// Queues `body` as op `op` (label detail e.g. the shapes) and returns its Work.
  IntrusivePtr<Work> enqueue(const std::string& op, const std::string& detail,
                             std::chrono::milliseconds op_timeout, std::vector<Tensor> outputs,
                             gloo_backend::OpBody body);
  /// The works queued or running now (for barrier).
  std::vector<IntrusivePtr<Work>> pending();
  void worker_loop(size_t index);
  std::string diagnose();
  /// A peer is gone (`why` names it): ops in flight `grace` from now fail with `why`.
  void peer_lost(const std::string& why, std::chrono::milliseconds grace);
  void monitor_loop();
  std::chrono::milliseconds resolve(std::chrono::milliseconds op_timeout) const {
    return op_timeout == kUnsetTimeout ? timeout : op_timeout;
  }
};

}  // namespace brasa::distributed
