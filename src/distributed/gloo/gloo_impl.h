#pragma once
// The private state of ProcessGroupGloo: Gloo contexts (one per device), the FIFO work queue and
// its worker threads, and the collective tag counter.

#include <gloo/context.h>
#include <gloo/transport/device.h>

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

/// What a queued op's body gets: its context, tag, timeout, and a label for error messages.
struct OpContext {
  std::shared_ptr<::gloo::Context> context;
  uint32_t tag;
  std::chrono::milliseconds timeout;
  int rank;
  int size;
};

using OpBody = std::function<void(const OpContext&)>;

/// Runs `body`, translating Gloo's exceptions into DistributedError/DistributedTimeoutError
/// prefixed with `label` (op, rank, tag). brasa errors pass through.
void run_translating(const std::string& label, std::chrono::milliseconds timeout,
                     const std::function<void()>& body, const ProcessGroup* group = nullptr);

}  // namespace gloo_backend

struct ProcessGroupGloo::Impl {
  struct Entry {
    IntrusivePtr<Work> work;
    std::string label;
    gloo_backend::OpContext ctx;
    gloo_backend::OpBody body;
  };

  int rank = 0;
  int size = 0;
  std::chrono::milliseconds timeout{0};
  std::vector<std::shared_ptr<::gloo::Context>> contexts;
  const ProcessGroup* owner = nullptr;  // for failure diagnosis

  std::mutex mutex;
  std::condition_variable cv;
  std::deque<Entry> queue;
  std::vector<IntrusivePtr<Work>> in_flight;  // queued or running, in FIFO order
  std::vector<std::thread> workers;
  bool stopping = false;
  uint32_t next_tag = 0;
  IntrusivePtr<Store> store;                // the group's store (monitoredBarrier, sequence)
  std::optional<uint64_t> sequence_number;  // set by setSequenceNumberForGroup; +1 per op
  uint64_t monitored_barriers = 0;          // names each monitoredBarrier's keys

  /// Queues `body` as op `op` (label detail e.g. the shapes) and returns its Work.
  IntrusivePtr<Work> enqueue(const std::string& op, const std::string& detail,
                             std::chrono::milliseconds op_timeout, std::vector<Tensor> outputs,
                             gloo_backend::OpBody body);
  /// The works queued or running now (for barrier).
  std::vector<IntrusivePtr<Work>> pending();
  void worker_loop();
  std::chrono::milliseconds resolve(std::chrono::milliseconds op_timeout) const {
    return op_timeout == kUnsetTimeout ? timeout : op_timeout;
  }
};

}  // namespace brasa::distributed
