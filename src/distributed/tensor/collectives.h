#pragma once
// The collectives of DTensor's placement changes, on one mesh dim's group. Shards follow
// torch.chunk's sizes: every piece is padded to the first piece's length for the collective, so
// the ranks exchange equal-sized buffers, and the padding is cut off afterwards. None of these
// records autograd history.

#include "brasa/distributed/process_group.h"

namespace brasa::distributed::detail {

/// The whole of tensor dim `dim` (of size `full_size`) from every rank's chunk of it.
Tensor gather_dim(ProcessGroup& group, const Tensor& local, int64_t dim, int64_t full_size);
/// This rank's chunk along `dim` of the reduction over ranks of `full` (the same shape on all).
Tensor reduce_scatter_dim(ProcessGroup& group, const Tensor& full, int64_t dim, ReduceOp op);
/// The reduction over ranks of `local` (a new tensor).
Tensor all_reduce(ProcessGroup& group, const Tensor& local, ReduceOp op);
/// Chunk `index` of `parts` along `dim`, contiguous (may be empty).
Tensor local_chunk(const Tensor& full, int64_t dim, int64_t parts, int64_t index);
/// A Partial piece of a replicated value: for a sum, the value on local rank 0 and zeros on the
/// others; for avg/min/max/product-free reductions of equal values, the value everywhere.
Tensor to_partial(const Tensor& value, ReduceOp op, int local_rank);
/// Waits for `work`, rethrowing its error.
void wait(const IntrusivePtr<Work>& work);

}  // namespace brasa::distributed::detail
