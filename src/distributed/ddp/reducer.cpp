// Reducer: bucketed, asynchronous gradient all-reduce driven by post-accumulate-grad hooks.

#include <algorithm>
#include <chrono>
#include <unordered_set>

#include "brasa/autograd/grad_mode.h"
#include "brasa/autograd/history.h"
#include "brasa/autograd/node.h"
#include "brasa/distributed/ddp.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"

namespace brasa::distributed {

struct Reducer::Bucket {
  std::vector<size_t> params;    // parameter indices
  std::vector<int64_t> offsets;  // element offset of each in `flat`
  Tensor flat;                   // gradients, divided by the world size
  Tensor comm;                   // what is communicated (flat, or its compressed copy)
  size_t pending = 0;            // parameters not ready yet this iteration
  IntrusivePtr<Work> work;
};

std::vector<std::vector<size_t>> compute_bucket_assignment_by_size(
    const std::vector<Tensor>& tensors, const std::vector<size_t>& order, size_t first_cap_bytes,
    size_t cap_bytes) {
  std::vector<std::vector<size_t>> buckets;
  std::vector<size_t> current;
  size_t bytes = 0;
  ScalarType dtype = ScalarType::Undefined;
  auto close = [&] {
    if (!current.empty()) buckets.push_back(std::move(current));
    current.clear();
    bytes = 0;
  };
  for (size_t index : order) {
    const Tensor& t = tensors.at(index);
    const size_t size = static_cast<size_t>(t.numel()) * t.element_size();
    if (!current.empty() && t.scalar_type() != dtype) close();
    dtype = t.scalar_type();
    current.push_back(index);
    bytes += size;
    if (bytes >= (buckets.empty() ? first_cap_bytes : cap_bytes)) close();
  }
  close();
  return buckets;
}

Reducer::Reducer(std::vector<Tensor> params, std::vector<std::string> names,
                 IntrusivePtr<ProcessGroup> group, DistributedDataParallelOptions options)
    : params_(std::move(params)),
      names_(std::move(names)),
      group_(std::move(group)),
      options_(std::move(options)),
      ready_(params_.size(), 0) {
  BRASA_CHECK(!params_.empty(), "DistributedDataParallel: the module has no parameters that ",
              "require grad");
  std::vector<size_t> reverse(params_.size());
  for (size_t i = 0; i < reverse.size(); ++i) reverse[i] = reverse.size() - 1 - i;
  build_buckets(reverse);
  scale_ = brasa::scalar_tensor(1.0 / group_->getSize(), kDouble);
  self_ = std::make_shared<Reducer*>(this);
  std::weak_ptr<Reducer*> weak = self_;
  for (size_t i = 0; i < params_.size(); ++i) {
    accumulators_.push_back(autograd::grad_accumulator(params_[i]));
    params_[i].register_post_accumulate_grad_hook([weak, i](const Tensor&) {
      if (auto self = weak.lock()) (*self)->on_grad_ready(i);
    });
  }
}

Reducer::~Reducer() {
  self_.reset();
  for (auto& bucket : buckets_) {  // don't leave communication running on our buffers
    try {
      if (bucket->work) bucket->work->wait();
    } catch (...) {
    }
  }
}

void Reducer::build_buckets(const std::vector<size_t>& order) {
  const auto mib = [](double mb) { return static_cast<size_t>(mb * 1024 * 1024); };
  const auto assignment = compute_bucket_assignment_by_size(
      params_, order, mib(options_.first_bucket_cap_mb), mib(options_.bucket_cap_mb));
  buckets_.clear();
  locator_.assign(params_.size(), {0, 0});
  for (size_t b = 0; b < assignment.size(); ++b) {
    auto bucket = std::make_unique<Bucket>();
    int64_t total = 0;
    for (size_t slot = 0; slot < assignment[b].size(); ++slot) {
      const size_t index = assignment[b][slot];
      bucket->params.push_back(index);
      bucket->offsets.push_back(total);
      locator_[index] = {b, slot};
      total += params_[index].numel();
    }
    bucket->flat = brasa::zeros({total}, params_[assignment[b][0]].scalar_type());
    bucket->pending = bucket->params.size();
    buckets_.push_back(std::move(bucket));
  }
}

std::vector<std::vector<size_t>> Reducer::bucket_indices() const {
  std::vector<std::vector<size_t>> out;
  for (const auto& b : buckets_) out.push_back(b->params);
  return out;
}

void Reducer::prepare_for_forward() {
  if (expecting_backward_ && num_ready_ < params_.size()) {
    std::string missing;
    for (size_t i = 0; i < params_.size(); ++i) {
      if (ready_[i]) continue;
      if (!missing.empty()) missing += ", ";
      missing += "'" + names_[i] + "'";
    }
    BRASA_THROW(ValueError,
                "DistributedDataParallel: the previous iteration's gradient reduction did not "
                "finish: these parameters got no gradient: ",
                missing,
                ". Pass find_unused_parameters = true if parts of the model are unused in some "
                "iterations, and make sure every forward output takes part in the loss");
  }
  expecting_backward_ = false;
  if (sync_) rebuild_buckets_if_due();
}

void Reducer::rebuild_buckets_if_due() {
  if (++sync_iterations_ != 2 || group_->getSize() == 1) return;
  // Every rank adopts rank 0's order from the first iteration (-1: rank 0 has none; keep the
  // buckets), so buckets match across ranks.
  Tensor order = brasa::full({static_cast<int64_t>(params_.size())}, -1.0, kInt64);
  if (ready_order_.size() == params_.size()) {
    for (size_t i = 0; i < params_.size(); ++i)
      order.data_ptr<int64_t>()[i] = static_cast<int64_t>(ready_order_[i]);
  }
  std::vector<Tensor> t{order};
  group_->broadcast(t, BroadcastOptions{})->wait();
  const int64_t* o = t[0].data_ptr<int64_t>();
  if (o[0] < 0) return;
  std::vector<size_t> rank0(params_.size());
  for (size_t i = 0; i < params_.size(); ++i) rank0[i] = static_cast<size_t>(o[i]);
  build_buckets(rank0);
  rebuilt_ = true;
}

int Reducer::count_active_ranks(bool active, bool divide_by_active) {
  std::vector<Tensor> flag{brasa::full({1}, active ? 1.0 : 0.0, kInt64)};
  group_->allreduce(flag, AllreduceOptions{})->wait();
  const auto n = static_cast<int>(flag[0].item<int64_t>());
  divisor_ = active && divide_by_active ? static_cast<double>(n) : 0.0;
  return n;
}

void Reducer::register_comm_hook(CommHook hook, bool hook_averages) {
  BRASA_CHECK_TYPED(ValueError,
                    !options_.comm_hook && options_.comm_hook_type == CommHookType::Allreduce,
                    "DistributedDataParallel: register_comm_hook can only be called once");
  BRASA_CHECK_TYPED(ValueError, !expecting_backward_,
                    "DistributedDataParallel: register_comm_hook between a forward and its "
                    "backward; register it before training");
  BRASA_CHECK_TYPED(ValueError, static_cast<bool>(hook),
                    "DistributedDataParallel: register_comm_hook needs a hook");
  options_.comm_hook = std::move(hook);
  options_.comm_hook_averages = hook_averages;
}

void Reducer::shadow_iteration() {
  shadow_forward();
  shadow_backward();
}

void Reducer::shadow_forward() { rebuild_buckets_if_due(); }

void Reducer::shadow_backward() {
  std::vector<IntrusivePtr<Work>> works;
  for (auto& bucket : buckets_) {
    Tensor zeros = brasa::zeros_like(bucket->flat);
    if (!options_.comm_hook) {
      if (options_.comm_hook_type == CommHookType::Fp16Compress) zeros = zeros.to(kHalf);
      if (options_.comm_hook_type == CommHookType::Bf16Compress) zeros = zeros.to(kBFloat16);
    }
    std::vector<Tensor> t{zeros};
    works.push_back(options_.comm_hook ? options_.comm_hook(*group_, zeros)
                                       : group_->allreduce(t, AllreduceOptions{}));
  }
  for (auto& w : works) w->wait();
}

void Reducer::prepare_for_backward(const std::vector<Tensor>& outputs) {
  std::fill(ready_.begin(), ready_.end(), 0);
  num_ready_ = 0;
  next_launch_ = 0;
  for (auto& b : buckets_) {
    b->pending = b->params.size();
    b->work = IntrusivePtr<Work>();
  }
  if (!rebuilt_) ready_order_.clear();
  expecting_backward_ = true;
  const double ranks = divisor_ > 0 ? divisor_ : static_cast<double>(group_->getSize());
  scale_.fill_(options_.comm_hook && options_.comm_hook_averages ? 1.0 : 1.0 / ranks);
  if (!options_.find_unused_parameters) return;
  // Nodes reachable from the outputs; a parameter whose AccumulateGrad is not among them gets no
  // gradient this iteration and is marked ready with zeros.
  std::unordered_set<const autograd::Node*> seen;
  std::vector<const autograd::Node*> stack;
  for (const auto& out : outputs) {
    if (out.defined() && out.grad_fn()) stack.push_back(out.grad_fn().get());
  }
  while (!stack.empty()) {
    const autograd::Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    for (const auto& e : n->next_edges())
      if (e.function) stack.push_back(e.function.get());
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!seen.count(static_cast<const autograd::Node*>(accumulators_[i].get())))
      mark_ready(i, Tensor());
  }
}

void Reducer::on_grad_ready(size_t index) {
  if (!sync_ || !expecting_backward_) return;
  BRASA_CHECK(!ready_[index], "DistributedDataParallel: parameter '", names_[index],
              "' got a gradient twice in one backward (a second backward through the same "
              "forward needs no_sync, or one backward per forward)");
  mark_ready(index, params_[index].grad());
}

void Reducer::mark_ready(size_t index, const Tensor& grad) {
  ready_[index] = 1;
  ++num_ready_;
  if (!rebuilt_) ready_order_.push_back(index);
  if (group_->getSize() == 1) {  // nothing to reduce: the local gradients are the result
    if (num_ready_ == params_.size()) expecting_backward_ = false;
    return;
  }
  auto [b, slot] = locator_[index];
  Bucket& bucket = *buckets_[b];
  Tensor view = bucket.flat.narrow(0, bucket.offsets[slot], params_[index].numel());
  {
    NoGradGuard no_grad;
    if (grad.defined()) {
      brasa::mul_out(view, grad.reshape({-1}), scale_);  // copy and average in one pass
    } else {
      view.zero_();
    }
  }
  --bucket.pending;
  launch_ready_buckets();
  if (num_ready_ == params_.size()) finalize();
}

void Reducer::launch_ready_buckets() {
  while (next_launch_ < buckets_.size() && buckets_[next_launch_]->pending == 0) {
    Bucket& bucket = *buckets_[next_launch_++];
    if (options_.comm_hook) {
      bucket.comm = bucket.flat;
      bucket.work = options_.comm_hook(*group_, bucket.comm);
      continue;
    }
    switch (options_.comm_hook_type) {
      case CommHookType::Fp16Compress: bucket.comm = bucket.flat.to(kHalf); break;
      case CommHookType::Bf16Compress: bucket.comm = bucket.flat.to(kBFloat16); break;
      case CommHookType::Allreduce: bucket.comm = bucket.flat; break;
    }
    std::vector<Tensor> tensors{bucket.comm};
    bucket.work = group_->allreduce(tensors, AllreduceOptions{});
  }
}

void Reducer::finalize() {
  const auto start = std::chrono::steady_clock::now();
  for (auto& bucket : buckets_) {
    if (bucket->work) bucket->work->wait();
  }
  last_wait_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  NoGradGuard no_grad;
  for (auto& bucket : buckets_) {
    if (!bucket->comm.is_same(bucket->flat)) bucket->flat.copy_(bucket->comm);
    for (size_t slot = 0; slot < bucket->params.size(); ++slot) {
      const Tensor& p = params_[bucket->params[slot]];
      Tensor reduced = bucket->flat.narrow(0, bucket->offsets[slot], p.numel()).view(p.sizes());
      Tensor& grad = p.mutable_grad();
      if (grad.defined()) {
        grad.copy_(reduced);
      } else {
        grad = reduced.clone();
      }
    }
  }
  expecting_backward_ = false;
}

}  // namespace brasa::distributed
