#include "distributed/tensor/collectives.h"

#include "brasa/brasa.h"
#include "brasa/distributed/dtensor.h"

namespace brasa::distributed::detail {

void wait(const IntrusivePtr<Work>& work) { work->wait(); }

Tensor gather_dim(ProcessGroup& group, const Tensor& local, int64_t dim, int64_t full_size) {
  NoGradGuard no_grad;
  const int64_t n = group.getSize();
  const int64_t chunk = (full_size + n - 1) / n;
  Tensor front = local.movedim(dim, 0);
  std::vector<int64_t> padded_shape = front.sizes().vec();
  padded_shape[0] = chunk;
  Tensor padded = front.new_zeros(padded_shape);
  if (front.size(0) > 0) padded.narrow(0, 0, front.size(0)).copy_(front);
  padded_shape[0] = chunk * n;
  Tensor all = front.new_zeros(padded_shape);
  std::vector<std::vector<Tensor>> outputs(1);
  for (int64_t r = 0; r < n; ++r) outputs[0].push_back(all.narrow(0, r * chunk, chunk));
  std::vector<Tensor> inputs{padded};
  wait(group.allgather(outputs, inputs));
  return all.narrow(0, 0, full_size).movedim(0, dim).contiguous();
}

Tensor reduce_scatter_dim(ProcessGroup& group, const Tensor& full, int64_t dim, ReduceOp op) {
  NoGradGuard no_grad;
  const int64_t n = group.getSize();
  Tensor front = full.movedim(dim, 0);
  const int64_t size = front.size(0);
  const int64_t chunk = (size + n - 1) / n;
  std::vector<int64_t> shape = front.sizes().vec();
  shape[0] = chunk * n;
  Tensor padded = front.new_zeros(shape);
  if (size > 0) padded.narrow(0, 0, size).copy_(front);
  shape[0] = chunk;
  std::vector<Tensor> outputs{front.new_zeros(shape)};
  std::vector<std::vector<Tensor>> inputs(1);
  for (int64_t r = 0; r < n; ++r) inputs[0].push_back(padded.narrow(0, r * chunk, chunk));
  ReduceScatterOptions opts;
  opts.reduceOp = op;
  wait(group.reduce_scatter(outputs, inputs, opts));
  const auto range = chunk_range(size, n, group.getRank());
  return outputs[0].narrow(0, 0, range.second).movedim(0, dim).contiguous();
}

Tensor all_reduce(ProcessGroup& group, const Tensor& local, ReduceOp op) {
  NoGradGuard no_grad;
  std::vector<Tensor> t{local.contiguous().clone()};
  AllreduceOptions opts;
  opts.reduceOp = op;
  wait(group.allreduce(t, opts));
  return t[0];
}

Tensor local_chunk(const Tensor& full, int64_t dim, int64_t parts, int64_t index) {
  NoGradGuard no_grad;
  const auto range = chunk_range(full.size(dim), parts, index);
  return full.narrow(dim, range.first, range.second).contiguous().clone();
}

Tensor to_partial(const Tensor& value, ReduceOp op, int local_rank) {
  NoGradGuard no_grad;
  if (op.op_ != ReduceOp::SUM || local_rank == 0) return value.clone();
  return zeros_like(value);
}

}  // namespace brasa::distributed::detail
