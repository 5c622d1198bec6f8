#pragma once
// DistributedDataParallel: data parallelism over a process group, modelled on PyTorch's DDP.
// Construction checks that every rank has the same parameters and copies rank 0's parameters and
// buffers to all. During backward, each parameter's gradient is copied (divided by the world size)
// into a bucket as soon as it is accumulated; a full bucket is all-reduced asynchronously, buckets
// in index order, so communication overlaps the rest of backward. When the last bucket is launched
// the reducer waits for all and writes the averaged gradients back into each parameter's grad.
//
//   auto pg = brasa::distributed::init_process_group("gloo");
//   brasa::distributed::DistributedDataParallel<Net> ddp(net, pg);
//   auto loss = loss_fn(ddp.forward(x), y);  loss.backward();  optimizer.step();

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "brasa/autograd/grad_mode.h"
#include "brasa/distributed/process_group.h"
#include "brasa/nn/module.h"

namespace brasa::distributed {

/// How a bucket is communicated: plain allreduce (default), or compressed to float16 / bfloat16
/// for the transfer (PyTorch's fp16_compress_hook / bf16_compress_hook), or a custom function
/// that starts the communication of the (already averaged) flat bucket in place.
enum class CommHookType { Allreduce, Fp16Compress, Bf16Compress };
using CommHook = std::function<IntrusivePtr<Work>(ProcessGroup& group, Tensor& bucket)>;

struct BRASA_API DistributedDataParallelOptions {
  /// Re-broadcast rank 0's buffers (e.g. BatchNorm statistics) before every forward.
  bool broadcast_buffers = true;
  /// Bucket capacities in MiB: the first bucket, then the others.
  double first_bucket_cap_mb = 1.0;
  double bucket_cap_mb = 25.0;
  /// Parameters that get no gradient in an iteration are found by walking the autograd graph
  /// from forward's outputs (costs a traversal per iteration). Without it, such a parameter is an
  /// error at the next forward, naming it.
  bool find_unused_parameters = false;
  CommHookType comm_hook_type = CommHookType::Allreduce;
  CommHook comm_hook;  // overrides comm_hook_type when set
  /// With comm_hook: buckets reach the hook holding the local gradients, not yet divided by the
  /// number of ranks, and the hook averages (PyTorch's register_comm_hook contract).
  bool comm_hook_averages = false;
};

/// Bucket assignment: indices of `tensors` grouped, in the given order, into buckets of at most
/// `first_cap_bytes` (the first) and `cap_bytes` (the rest), one dtype per bucket; a tensor larger
/// than the cap gets a bucket of its own.
BRASA_API std::vector<std::vector<size_t>> compute_bucket_assignment_by_size(
    const std::vector<Tensor>& tensors, const std::vector<size_t>& order, size_t first_cap_bytes,
    size_t cap_bytes);

/// The gradient synchronisation of DistributedDataParallel (PyTorch's Reducer).
class BRASA_API Reducer {
 public:
  Reducer(std::vector<Tensor> params, std::vector<std::string> names,
          IntrusivePtr<ProcessGroup> group, DistributedDataParallelOptions options);
  ~Reducer();
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;

  /// Before a forward: checks the previous synchronised backward completed (else ValueError
  /// naming the parameters that got no gradient); before the second synchronised one, rebuilds
  /// the buckets once from rank 0's observed order (a collective).
  void prepare_for_forward();
  /// Join (uneven inputs): all-reduces whether this rank still has data; returns how many do.
  /// Active ranks then average over that many ranks, or over the whole group when
  /// `divide_by_active` is false (PyTorch's divide_by_initial_world_size); an inactive rank
  /// resets the divisor to the group size.
  int count_active_ranks(bool active, bool divide_by_active = true);
  /// Join: what a rank without data does for one iteration of the others: shadow_forward(), then
  /// (after the buffers' broadcast, when the module broadcasts them) shadow_backward().
  void shadow_iteration();
  /// The collectives of prepare_for_forward: the bucket rebuild, when due.
  void shadow_forward();
  /// The collectives of a backward: an all-reduce of zeros per bucket, in bucket order.
  void shadow_backward();
  /// Installs `hook` as options.comm_hook with options.comm_hook_averages = `hook_averages`.
  /// Once only, and not while a backward is expected (ValueError).
  void register_comm_hook(CommHook hook, bool hook_averages);
  /// After a forward that will be followed by a synchronised backward: with
  /// find_unused_parameters, marks parameters unreachable from `outputs` as ready.
  void prepare_for_backward(const std::vector<Tensor>& outputs);
  /// While false (no_sync), backward only accumulates gradients locally.
  void set_sync(bool sync) { sync_ = sync; }
  bool sync() const { return sync_; }
  /// The number of buckets and the parameter indices of each (for tests and tuning).
  std::vector<std::vector<size_t>> bucket_indices() const;
  bool buckets_rebuilt() const { return rebuilt_; }
  /// Time spent in finalize() waiting for communication after the last gradient was ready (s).
  double last_wait_seconds() const { return last_wait_seconds_; }

 private:
  struct Bucket;
  void build_buckets(const std::vector<size_t>& order);
  void rebuild_buckets_if_due();
  void on_grad_ready(size_t index);
  void mark_ready(size_t index, const Tensor& grad);
  void launch_ready_buckets();
  void finalize();

  std::vector<Tensor> params_;
  std::vector<std::string> names_;
  IntrusivePtr<ProcessGroup> group_;
  DistributedDataParallelOptions options_;
  std::vector<std::unique_ptr<Bucket>> buckets_;
  std::vector<std::pair<size_t, size_t>> locator_;  // param -> (bucket, slot)
  std::vector<char> ready_;
  size_t num_ready_ = 0;
  size_t next_launch_ = 0;
  bool sync_ = true;
  bool expecting_backward_ = false;
  bool rebuilt_ = false;
  std::vector<size_t> ready_order_;
  double last_wait_seconds_ = 0;
  int64_t sync_iterations_ = 0;  // synchronised forwards (and shadow iterations) so far
  double divisor_ = 0;           // ranks whose gradients are averaged (0: the group size)
  Tensor scale_;                 // 1 / those ranks, 0-d: gradients enter buckets pre-averaged
  std::vector<std::shared_ptr<void>> accumulators_;  // keeps each parameter's AccumulateGrad alive
  std::shared_ptr<Reducer*> self_;  // the hooks hold it weakly: no calls after destruction
};

namespace detail {
/// Checks that all ranks have the same parameter names, shapes and dtypes (ValueError naming the
/// first difference and the ranks) and copies rank 0's parameters and buffers to all ranks.
BRASA_API void sync_module_state(nn::Module& module, ProcessGroup& group);
/// Copies rank 0's buffers to all ranks.
BRASA_API void broadcast_buffers(nn::Module& module, ProcessGroup& group);
}  // namespace detail

/// Holds `module` (a ModuleHolder such as a TORCH_MODULE type or a std::shared_ptr<Module>
/// subclass) and synchronises its gradients over `group`.
template <typename ModuleType>
class DistributedDataParallel {
 public:
  DistributedDataParallel(ModuleType module, IntrusivePtr<ProcessGroup> group,
                          DistributedDataParallelOptions options = {})
      : module_(std::move(module)), group_(std::move(group)), options_(options) {
    nn::Module& m = *module_;
    std::vector<Tensor> params;
    std::vector<std::string> names;
    for (const auto& item : m.named_parameters()) {
      if (!item.value().requires_grad()) continue;
      params.push_back(item.value());
      names.push_back(item.key());
    }
    detail::sync_module_state(m, *group_);
    reducer_ = std::make_unique<Reducer>(std::move(params), std::move(names), group_, options_);
  }

  /// Runs the module's forward with DDP's bookkeeping around it.
  template <typename... Args>
  auto forward(Args&&... args) {
    if (joining_ && reducer_->sync()) reducer_->count_active_ranks(true, join_divide_by_active_);
    reducer_->prepare_for_forward();
    if (options_.broadcast_buffers && reducer_->sync())
      detail::broadcast_buffers(*module_, *group_);
    auto out = module_->forward(std::forward<Args>(args)...);
    if (reducer_->sync() && GradMode::is_enabled()) reducer_->prepare_for_backward(outputs_of(out));
    return out;
  }
  template <typename... Args>
  auto operator()(Args&&... args) {
    return forward(std::forward<Args>(args)...);
  }

  /// Gradient accumulation: backward passes inside `fn` only accumulate locally; the next
  /// synchronised backward all-reduces the accumulated gradients.
  template <typename Fn>
  void no_sync(Fn&& fn) {
    reducer_->set_sync(false);
    try {
      fn();
    } catch (...) {
      reducer_->set_sync(true);
      throw;
    }
    reducer_->set_sync(true);
  }

  /// Uneven inputs (PyTorch's Join): runs `fn` (this rank's training loop), then keeps taking
  /// part in the other ranks' iterations (their buffer broadcasts and gradient all-reduces, with
  /// zeros) until every rank has finished, so no rank hangs in a collective. While some ranks have
  /// finished, the others average over the ranks still training, or, with
  /// `divide_by_initial_world_size` (PyTorch's default), over the whole group, the finished ranks
  /// contributing zeros. Every rank must call join().
  template <typename Fn>
  void join(Fn&& fn, bool divide_by_initial_world_size = false) {
    joining_ = true;
    join_divide_by_active_ = !divide_by_initial_world_size;
    try {
      fn();
    } catch (...) {
      joining_ = false;
      throw;
    }
    while (reducer_->count_active_ranks(false) > 0) {  // the others' forward and backward
      reducer_->shadow_forward();
      if (options_.broadcast_buffers) detail::broadcast_buffers(*module_, *group_);
      reducer_->shadow_backward();
    }
    joining_ = false;
  }

  ModuleType& module() { return module_; }
  Reducer& reducer() { return *reducer_; }
  ProcessGroup& process_group() { return *group_; }

 private:
  static std::vector<Tensor> outputs_of(const Tensor& t) { return {t}; }
  static std::vector<Tensor> outputs_of(const std::vector<Tensor>& v) { return v; }
  template <typename T>
  static std::vector<Tensor> outputs_of(const T&) {
    return {};
  }

  ModuleType module_;
  IntrusivePtr<ProcessGroup> group_;
  DistributedDataParallelOptions options_;
  std::unique_ptr<Reducer> reducer_;
  bool joining_ = false;
  bool join_divide_by_active_ = true;
};

}  // namespace brasa::distributed
