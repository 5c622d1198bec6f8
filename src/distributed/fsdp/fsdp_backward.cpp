// The end of a unit's backward: unsharded gradients -> reduce-scatter (averaged over the shard
// ranks; on an HSDP mesh then all-reduced over the replicas) -> sharded .grad, then reshard.

#include "brasa/brasa.h"
#include "distributed/fsdp/fsdp_param.h"
#include "distributed/tensor/collectives.h"

namespace brasa::distributed {

void FSDPState::post_backward() {
  expecting_backward_ = false;
  NoGradGuard no_grad;
  const auto& mp = options_.mp_policy;
  std::vector<Tensor> grads(params_.size());
  bool any = false;
  for (size_t i = 0; i < params_.size(); ++i) {
    Param& p = *params_[i];
    if (!p.requires_grad) continue;
    Tensor g = p.param.grad();
    p.param.mutable_grad() = Tensor();
    if (!g.defined()) continue;
    const ScalarType reduce = mp.reduce_dtype.value_or(g.scalar_type());
    g = g.scalar_type() == reduce ? g : g.to(reduce);
    if (p.accumulated_grad.defined()) {
      g = p.accumulated_grad + g;
      p.accumulated_grad = Tensor();
    }
    if (!sync_) {
      p.accumulated_grad = g.clone();
      continue;
    }
    grads[i] = g;
    any = true;
  }
  std::vector<Tensor> sharded(params_.size());
  if (any) {
    ProcessGroup& group = shard_group();
    const int64_t n = group.getSize();
    ScalarType reduce = ScalarType::Undefined;
    int64_t total = 0;
    for (size_t i = 0; i < params_.size(); ++i) {
      if (!grads[i].defined()) continue;
      BRASA_CHECK(reduce == ScalarType::Undefined || reduce == grads[i].scalar_type(),
                  "fully_shard(", module_->name(), "): gradients of one unit must share a dtype ",
                  "to be reduce-scattered together; got ", reduce, " and ", grads[i].scalar_type(),
                  " (set MixedPrecisionPolicy.reduce_dtype)");
      reduce = grads[i].scalar_type();
      total += params_[i]->chunk * params_[i]->row_numel;
    }
    const auto options = TensorOptions().dtype(reduce);
    Tensor input = zeros({total * n}, options);
    int64_t offset = 0;
    std::vector<int64_t> offsets(params_.size());
    for (size_t i = 0; i < params_.size(); ++i) {
      if (!grads[i].defined()) continue;
      const Param& p = *params_[i];
      offsets[i] = offset;
      for (int64_t r = 0; r < n; ++r) {
        const auto range = chunk_range(p.rows, n, r);
        if (range.second == 0) continue;
        input.narrow(0, r * total + offset, range.second * p.row_numel)
            .copy_(grads[i].narrow(0, range.first, range.second).reshape({-1}));
      }
      offset += p.chunk * p.row_numel;
    }
    std::vector<Tensor> outputs{empty({total}, options)};
    std::vector<std::vector<Tensor>> inputs(1);
    for (int64_t r = 0; r < n; ++r) inputs[0].push_back(input.narrow(0, r * total, total));
    ReduceScatterOptions rs;
    rs.reduceOp = ReduceOp::AVG;
    detail::wait(group.reduce_scatter(outputs, inputs, rs));
    if (mesh_.ndim() == 2) {
      AllreduceOptions ar;
      ar.reduceOp = ReduceOp::AVG;
      detail::wait(mesh_.get_group(0)->allreduce(outputs, ar));
    }
    for (size_t i = 0; i < params_.size(); ++i) {
      if (!grads[i].defined()) continue;
      const Param& p = *params_[i];
      std::vector<int64_t> shape = p.shape;
      shape[0] = p.local_rows;
      Tensor g = outputs[0].narrow(0, offsets[i], p.local_rows * p.row_numel).view(shape);
      sharded[i] = g.scalar_type() == p.dtype ? g.clone() : g.to(p.dtype);
    }
  }
  reshard();
  for (size_t i = 0; i < params_.size(); ++i) {
    Param& p = *params_[i];
    if (!p.requires_grad) continue;
    Tensor g = sharded[i];
    if (p.stashed_grad.defined()) g = g.defined() ? p.stashed_grad.add_(g) : p.stashed_grad;
    p.stashed_grad = Tensor();
    p.param.mutable_grad() = g;
  }
}

}  // namespace brasa::distributed
