#pragma once
// ProcessGroupGloo (c10d::ProcessGroupGloo): the collectives of ProcessGroup over Gloo's TCP
// transport, CPU tensors only. Gloo calls are blocking; each op is queued to a pool of worker
// threads (Options::threads) in FIFO order and gets a unique tag (a per-group counter, identical
// on every rank because every rank issues the same ops in the same order), so ops in flight at
// the same time never mix. Failures (lost peer, timeout) complete the op's Work with
// DistributedError / DistributedTimeoutError naming the op, the group rank and the cause.
//
// Deviation from libtorch: the device handles are an opaque brasa type (GlooDevice) instead of
// std::shared_ptr<::gloo::transport::Device>, so that this header does not include Gloo.

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "brasa/distributed/process_group.h"
#include "brasa/distributed/store.h"

namespace brasa::distributed {

/// An opaque Gloo transport device (a TCP listener with its I/O thread); see createDevice*.
struct GlooDevice;

class BRASA_API ProcessGroupGloo : public ProcessGroup {
 public:
  static constexpr std::chrono::milliseconds kDefaultTimeout{300000};

  /// The group's store as Gloo's rendezvous sees it (char vectors; libtorch's GlooStore, which
  /// derives from ::gloo::rendezvous::Store there; here it is a plain class, see above).
  class BRASA_API GlooStore {
   public:
    explicit GlooStore(const IntrusivePtr<Store>& store);
    virtual ~GlooStore() = default;
    void setUint(const std::string& key, const std::vector<uint8_t>& value);
    virtual void set(const std::string& key, const std::vector<char>& value);
    std::vector<uint8_t> getUint(const std::string& key);
    virtual std::vector<char> get(const std::string& key);
    /// Waits up to Store::kDefaultTimeout, as libtorch's does.
    virtual void wait(const std::vector<std::string>& keys);
    virtual void wait(const std::vector<std::string>& keys,
                      const std::chrono::milliseconds& timeout);

   protected:
    IntrusivePtr<Store> store_;
  };

  /// timeout bounds the rendezvous and every op without its own timeout; devices empty means
  /// createDefaultDevice(); ops round-robin over one Gloo context per device.
  struct BRASA_API Options : public RefCounted {
    explicit Options(std::chrono::milliseconds timeout_ = kDefaultTimeout) : timeout(timeout_) {}
    static IntrusivePtr<Options> create(std::chrono::milliseconds timeout = kDefaultTimeout) {
      return make_intrusive<Options>(timeout);
    }
    std::chrono::milliseconds timeout;
    std::vector<std::shared_ptr<GlooDevice>> devices;
    int threads = 2;
  };

  /// A TCP device listening on the address `hostname` resolves to. Throws DistributedError.
  static std::shared_ptr<GlooDevice> createDeviceForHostname(const std::string& hostname);
  /// A TCP device listening on the network interface `interface` (e.g. "lo", "eth0").
  static std::shared_ptr<GlooDevice> createDeviceForInterface(const std::string& interface);
  /// GLOO_SOCKET_IFNAME's interface if set, else the address of MASTER_ADDR if set, else
  /// 127.0.0.1.
  static std::shared_ptr<GlooDevice> createDefaultDevice();

  /// Connects to the `size - 1` other ranks through `store` (keys under "gloo/<device index>/"),
  /// blocking up to options->timeout. Throws ValueError on bad rank/size/options,
  /// DistributedTimeoutError when a rank does not join in time, DistributedError otherwise.
  ProcessGroupGloo(const IntrusivePtr<Store>& store, int rank, int size,
                   IntrusivePtr<Options> options = Options::create());
  /// Waits for the queued ops to finish (each bounded by its timeout), then disconnects. An op
  /// already failed because a peer was lost does not hold it up: a worker thread still blocked in
  /// Gloo after 200 ms is detached (Note [Lost peers]).
  ~ProcessGroupGloo() override;

  const std::string getBackendName() const override { return "gloo"; }
  IntrusivePtr<Options> getOptions() const { return options_; }

  // The collectives; see ProcessGroup. Exactly one tensor per list (per rank for the nested
  // lists); argument errors throw ValueError/TypeError at the call, naming the op.
  IntrusivePtr<Work> broadcast(std::vector<Tensor>& tensors,
                               const BroadcastOptions& opts = BroadcastOptions()) override;
  IntrusivePtr<Work> allreduce(std::vector<Tensor>& tensors,
                               const AllreduceOptions& opts = AllreduceOptions()) override;
  IntrusivePtr<Work> reduce(std::vector<Tensor>& tensors,
                            const ReduceOptions& opts = ReduceOptions()) override;
  IntrusivePtr<Work> allgather(std::vector<std::vector<Tensor>>& outputTensors,
                               std::vector<Tensor>& inputTensors,
                               const AllgatherOptions& opts = AllgatherOptions()) override;
  IntrusivePtr<Work> gather(std::vector<std::vector<Tensor>>& outputTensors,
                            std::vector<Tensor>& inputTensors,
                            const GatherOptions& opts = GatherOptions()) override;
  IntrusivePtr<Work> scatter(std::vector<Tensor>& outputTensors,
                             std::vector<std::vector<Tensor>>& inputTensors,
                             const ScatterOptions& opts = ScatterOptions()) override;
  /// Implemented as an allreduce of the concatenated inputs keeping this rank's slice (what
  /// libtorch's Gloo backend does for reduce_scatter_tensor): 2x the traffic of a true one.
  IntrusivePtr<Work> reduce_scatter(
      std::vector<Tensor>& outputTensors, std::vector<std::vector<Tensor>>& inputTensors,
      const ReduceScatterOptions& opts = ReduceScatterOptions()) override;
  IntrusivePtr<Work> alltoall_base(Tensor& outputTensor, Tensor& inputTensor,
                                   std::vector<int64_t>& outputSplitSizes,
                                   std::vector<int64_t>& inputSplitSizes,
                                   const AllToAllOptions& opts = AllToAllOptions()) override;
  IntrusivePtr<Work> alltoall(std::vector<Tensor>& outputTensors, std::vector<Tensor>& inputTensors,
                              const AllToAllOptions& opts = AllToAllOptions()) override;
  /// Point to point: posted at once (not queued); the Work's wait() waits for the transfer
  /// (up to its timeout, else the group's). `tag` must match between the two ranks.
  IntrusivePtr<Work> send(std::vector<Tensor>& tensors, int dstRank, int tag) override;
  IntrusivePtr<Work> recv(std::vector<Tensor>& tensors, int srcRank, int tag) override;
  /// Waits for the ops queued before it, then for every rank to reach the barrier.
  IntrusivePtr<Work> barrier(const BarrierOptions& opts = BarrierOptions()) override;
  /// Rank 0 waits up to opts.timeout (else the group's) for every other rank to arrive, then
  /// releases them; it does not wait for queued ops. Rank 0 throws DistributedTimeoutError
  /// "[Rank 0]: Rank 1 failed to pass monitoredBarrier in 300 ms" (with waitAllRanks, all the
  /// missing ranks: "Ranks 1, 2 failed ..."); the others throw DistributedTimeoutError when
  /// rank 0 does not release them in time. Goes through the store, not Gloo.
  void monitoredBarrier(const BarrierOptions& opts = BarrierOptions(),
                        bool waitAllRanks = false) override;
  /// Rank 0 picks the number and publishes it in the store; the others read it (waiting up to
  /// the group's timeout). Each collective issued afterwards increments it.
  void setSequenceNumberForGroup() override;
  uint64_t getSequenceNumberForGroup() override;
  /// The group's store, wrapped as libtorch wraps it.
  const std::unique_ptr<GlooStore>& _getStore() const { return store_; }
  int getNumThreads() const { return options_->threads; }

  /// brasa: a function that tells this group a peer is gone (`why` names it, e.g. "rank 1 stopped
  /// responding (...)"): every op still in flight `grace` later completes with DistributedError
  /// naming the op and `why`, and its Gloo waits are interrupted (Note [Lost peers] in
  /// src/distributed/gloo/lost_peers.cpp). init_process_group connects it to the store's liveness
  /// leases. Safe to call from any thread, also after the group is destroyed (it does nothing).
  std::function<void(const std::string& why, std::chrono::milliseconds grace)> peer_loss_handler()
      const;

  struct Impl;

 private:
  IntrusivePtr<Options> options_;
  std::unique_ptr<GlooStore> store_;
  std::shared_ptr<Impl> impl_;  // shared with the worker threads (one may be detached)
};

}  // namespace brasa::distributed
