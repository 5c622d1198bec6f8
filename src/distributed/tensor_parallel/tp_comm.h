#pragma once
// The differentiable collectives of tensor parallel over the TP group, each a forward collective
// and the backward one that makes gradients right (Note [Tensor parallel in brasa]). Shards are
// even: a sharded dim is the local size times the group size. Each call is counted in
// tensor_parallel_stats.

#include "brasa/distributed/process_group.h"

namespace brasa::distributed::detail::tp {

using Group = IntrusivePtr<ProcessGroup>;

/// Identity forward, all-reduce (sum) backward: a replicated value consumed by sharded compute,
/// whose gradient is partial on each rank (Megatron's f).
Tensor copy_to_parallel(const Tensor& x, const Group& group);
/// All-reduce (sum) forward, identity backward: a partial result made replicated (Megatron's g).
Tensor reduce_from_parallel(const Tensor& x, const Group& group);
/// All-gather of `dim` forward, reduce-scatter backward: a sharded input made whole for sharded
/// compute (sequence parallel into a Colwise layer).
Tensor gather_for_parallel(const Tensor& x, const Group& group, int64_t dim);
/// All-gather of `dim` forward, this rank's chunk backward: a sharded output made whole for
/// replicated compute.
Tensor gather_to_replicated(const Tensor& x, const Group& group, int64_t dim);
/// Reduce-scatter of `dim` forward, all-gather backward: a partial result made sharded.
Tensor reduce_scatter_to_shard(const Tensor& x, const Group& group, int64_t dim);
/// This rank's chunk of `dim` forward, all-gather backward: a replicated value made sharded for
/// compute that is exact per shard.
Tensor chunk_to_shard(const Tensor& x, const Group& group, int64_t dim);
/// The whole of `dim` from every rank's even chunk, without autograd (token ids).
Tensor gather_no_grad(const Tensor& x, const Group& group, int64_t dim);

}  // namespace brasa::distributed::detail::tp
