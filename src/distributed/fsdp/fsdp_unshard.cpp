// All-gather and free of a unit's parameters, and prefetching the next unit's all-gather.
//
// Note [FSDP prefetch]
// The first forward through the root records the order in which the units inside it run. From
// then on, a unit's pre-forward, once its own parameters are gathered, starts the all-gather of
// the unit after it, and its pre-backward starts the one of the unit before it (backward runs
// the units in reverse). The collective runs on the process group's thread while this thread
// computes; the unit waits for it only when it needs its parameters. Every rank runs the same
// units in the same order, so the collectives stay matched. A prefetched all-gather whose
// shards changed before it was used (an optimizer step in between, when a unit was skipped) is
// detected by the shards' version counters and redone.

#include <chrono>

#include "brasa/brasa.h"
#include "distributed/fsdp/fsdp_param.h"
#include "distributed/fsdp/fsdp_registry.h"
#include "distributed/tensor/collectives.h"

namespace brasa::distributed {

void FSDPState::start_unshard() {
  if (unsharded_ || pending_ || params_.empty()) return;
  NoGradGuard no_grad;
  ProcessGroup& group = shard_group();
  const int64_t n = group.getSize();
  const ScalarType compute = params_.front()->full.scalar_type();
  auto g = std::make_unique<Gather>();
  for (const auto& p : params_) g->total += p->chunk * p->row_numel;
  Tensor input = empty({g->total}, TensorOptions().dtype(compute));
  int64_t offset = 0;
  for (const auto& p : params_) {
    input.narrow(0, offset, p->chunk * p->row_numel).copy_(p->padded.reshape({-1}));
    offset += p->chunk * p->row_numel;
    g->versions.push_back(p->padded._version());
  }
  g->gathered = empty({g->total * n}, TensorOptions().dtype(compute));
  std::vector<std::vector<Tensor>> outputs(1);
  for (int64_t r = 0; r < n; ++r)
    outputs[0].push_back(g->gathered.narrow(0, r * g->total, g->total));
  std::vector<Tensor> inputs{input};
  g->work = group.allgather(outputs, inputs);
  pending_ = std::move(g);
}

void FSDPState::unshard() {
  if (unsharded_ || params_.empty()) {
    unsharded_ = true;
    return;
  }
  if (pending_) ++prefetched_;
  start_unshard();
  const auto start = std::chrono::steady_clock::now();
  detail::wait(pending_->work);
  bool stale = false;
  for (size_t i = 0; i < params_.size(); ++i) {
    stale = stale || params_[i]->padded._version() != pending_->versions[i];
  }
  if (stale) {
    pending_.reset();
    start_unshard();
    detail::wait(pending_->work);
  }
  all_gather_wait_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++all_gathers_;
  NoGradGuard no_grad;
  const std::unique_ptr<Gather> g = std::move(pending_);
  const int64_t n = shard_group().getSize();
  int64_t offset = 0;
  for (const auto& p : params_) {
    StorageImpl& storage = *p->full.storage();
    const size_t nbytes = static_cast<size_t>(detail::elements(p->shape)) * p->full.element_size();
    DataPtr bytes = storage.allocator()->allocate(nbytes);
    Tensor target = from_blob(bytes.get(), p->shape, TensorOptions().dtype(p->full.scalar_type()));
    for (int64_t r = 0; r < n; ++r) {
      const auto range = chunk_range(p->rows, n, r);
      if (range.second == 0) continue;
      std::vector<int64_t> piece = p->shape;
      piece[0] = range.second;
      target.narrow(0, range.first, range.second)
          .copy_(g->gathered.narrow(0, r * g->total + offset, range.second * p->row_numel)
                     .view(piece));
    }
    storage.set_data(std::move(bytes), nbytes);
    p->param.set_data(p->full);
    offset += p->chunk * p->row_numel;
  }
  unsharded_ = true;
}

void FSDPState::reshard() {
  if (!unsharded_) return;
  for (const auto& p : params_) {
    p->param.set_data(p->shard);
    p->full.storage()->set_data(DataPtr(), 0);
  }
  unsharded_ = false;
}

void FSDPState::note_forward_order() {
  if (is_root_) {
    if (!order_known_) {
      order_.clear();
      recording_order_ = true;
    }
    return;
  }
  auto root = root_.lock();
  if (!root) {
    for (auto& unit : detail::live_units()) {
      if (unit->is_root_ && detail::contains(*unit->module_, *module_)) root = unit;
    }
    root_ = root;
  }
  if (root && root->recording_order_) {
    position_ = static_cast<int64_t>(root->order_.size());
    root->order_.push_back(weak_from_this());
  }
}

void FSDPState::prefetch(int step) {
  if (!options_.prefetch) return;
  std::shared_ptr<FSDPState> root = is_root_ ? shared_from_this() : root_.lock();
  if (!root || !root->order_known_) return;
  const int64_t at = (is_root_ ? -1 : position_) + step;
  std::shared_ptr<FSDPState> next;
  if (at >= 0 && at < static_cast<int64_t>(root->order_.size())) {
    next = root->order_[static_cast<size_t>(at)].lock();
  } else if (at == -1 && !is_root_) {
    next = root;  // backward from the first unit returns to the root's own parameters
  }
  if (next) next->start_unshard();
}

}  // namespace brasa::distributed
