// Tensor parallel's collectives as autograd nodes: the forward runs one collective, the node's
// backward the conjugate one, on the autograd engine's thread (every rank runs the same backward
// graph, so the collectives stay matched).

#include "distributed/tensor_parallel/tp_comm.h"

#include <atomic>
#include <functional>
#include <utility>

#include "brasa/autograd/history.h"
#include "brasa/brasa.h"
#include "brasa/distributed/tensor_parallel.h"
#include "distributed/tensor/collectives.h"

namespace brasa::distributed {
namespace {

enum class Op : uint8_t { AllReduce, AllGather, ReduceScatter };

struct Counters {
  std::atomic<int64_t> v[2][3] = {};
};
Counters& counters() {
  static Counters c;
  return c;
}
void count(bool backward, Op op) {
  counters().v[backward ? 1 : 0][static_cast<int>(op)].fetch_add(1, std::memory_order_relaxed);
}
TensorParallelCounts read(int phase) {
  auto& v = counters().v[phase];
  return {v[0].load(), v[1].load(), v[2].load()};
}

using Fn = std::function<Tensor(const Tensor&)>;

class CollectiveBackward final : public autograd::Node {
 public:
  CollectiveBackward(const char* name, Fn backward) : name_(name), backward_(std::move(backward)) {}
  std::string name() const override { return name_; }
  autograd::variable_list apply(autograd::variable_list&& grads) override {
    if (grads.empty() || !grads[0].defined()) return {Tensor()};
    return {backward_(grads[0])};
  }

 private:
  const char* name_;
  Fn backward_;
};

// forward(x) without history, then a node running backward(grad) when x needs a gradient.
Tensor differentiable(const Tensor& x, const char* name, const Fn& forward, Fn backward) {
  Tensor y;
  {
    NoGradGuard no_grad;
    y = forward(x);
    if (y.is_same(x)) y = autograd::shallow_alias(x);
  }
  if (autograd::any_requires_grad({&x})) {
    auto node = std::make_shared<CollectiveBackward>(name, std::move(backward));
    node->set_next_edges(autograd::collect_next_edges({&x}));
    autograd::set_history(y, node);
  }
  return y;
}

int64_t norm_dim(const Tensor& x, int64_t dim) { return dim < 0 ? dim + x.dim() : dim; }

Tensor run_all_reduce(const Tensor& x, ProcessGroup& g, bool backward) {
  count(backward, Op::AllReduce);
  return detail::all_reduce(g, x, ReduceOp::SUM);
}
Tensor run_all_gather(const Tensor& x, ProcessGroup& g, int64_t dim, bool backward) {
  count(backward, Op::AllGather);
  return detail::gather_dim(g, x, dim, x.size(dim) * g.getSize());
}
Tensor run_reduce_scatter(const Tensor& x, ProcessGroup& g, int64_t dim, bool backward) {
  count(backward, Op::ReduceScatter);
  return detail::reduce_scatter_dim(g, x, dim, ReduceOp::SUM);
}
Tensor run_chunk(const Tensor& x, ProcessGroup& g, int64_t dim) {
  return detail::local_chunk(x, dim, g.getSize(), g.getRank());
}

}  // namespace

TensorParallelStats tensor_parallel_stats() { return {read(0), read(1)}; }

void reset_tensor_parallel_stats() {
  for (auto& phase : counters().v) {
    for (auto& c : phase) c.store(0);
  }
}

namespace detail::tp {

Tensor copy_to_parallel(const Tensor& x, const Group& group) {
  return differentiable(
      x, "CopyToTensorParallelBackward", [](const Tensor& t) { return t; },
      [group](const Tensor& g) { return run_all_reduce(g, *group, true); });
}

Tensor reduce_from_parallel(const Tensor& x, const Group& group) {
  return differentiable(
      x, "ReduceFromTensorParallelBackward",
      [&group](const Tensor& t) { return run_all_reduce(t, *group, false); },
      [](const Tensor& g) { return g; });
}

Tensor gather_for_parallel(const Tensor& x, const Group& group, int64_t dim) {
  const int64_t d = norm_dim(x, dim);
  return differentiable(
      x, "GatherForTensorParallelBackward",
      [&group, d](const Tensor& t) { return run_all_gather(t, *group, d, false); },
      [group, d](const Tensor& g) { return run_reduce_scatter(g, *group, d, true); });
}

Tensor gather_to_replicated(const Tensor& x, const Group& group, int64_t dim) {
  const int64_t d = norm_dim(x, dim);
  return differentiable(
      x, "GatherToReplicatedBackward",
      [&group, d](const Tensor& t) { return run_all_gather(t, *group, d, false); },
      [group, d](const Tensor& g) { return run_chunk(g, *group, d); });
}

Tensor reduce_scatter_to_shard(const Tensor& x, const Group& group, int64_t dim) {
  const int64_t d = norm_dim(x, dim);
  return differentiable(
      x, "ReduceScatterToShardBackward",
      [&group, d](const Tensor& t) { return run_reduce_scatter(t, *group, d, false); },
      [group, d](const Tensor& g) { return run_all_gather(g, *group, d, true); });
}

Tensor chunk_to_shard(const Tensor& x, const Group& group, int64_t dim) {
  const int64_t d = norm_dim(x, dim);
  return differentiable(
      x, "ChunkToShardBackward", [&group, d](const Tensor& t) { return run_chunk(t, *group, d); },
      [group, d](const Tensor& g) { return run_all_gather(g, *group, d, true); });
}

Tensor gather_no_grad(const Tensor& x, const Group& group, int64_t dim) {
  NoGradGuard no_grad;
  return run_all_gather(x, *group, norm_dim(x, dim), false);
}

}  // namespace detail::tp
}  // namespace brasa::distributed
