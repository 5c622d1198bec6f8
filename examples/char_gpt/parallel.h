#pragma once
// char_gpt --tp N --fsdp M: the model on N x M processes started by brasarun, TorchTitan's 2-D
// layout (docs/distributed.md, "FSDP × TP"): every block tensor parallel over the "tp" ranks
// (attention's fused q/k/v and the MLP's first layer column-wise, their output projections
// row-wise: one all-reduce forward and one backward each), then fully_shard over the "dp" ranks
// (each block a unit, then the root), and the global batch split over "dp". Every rank draws the
// same global batch (same seed, same random stream) and keeps its rows, so with --dropout 0 a step
// equals single-process training of the global batch up to rounding. --sequence-parallel adds
// Megatron-LM's sequence parallelism: between the TP regions the residual stream is sharded on the
// sequence dim (the LayerNorms run on each rank's positions; the column-parallel inputs are
// all-gathered and the row-parallel outputs reduce-scattered instead of all-reduced), from the
// embeddings' sum (chunked by the root's Dropout) to ln_f (whose output is all-gathered). --dcp
// checkpoints
// (torch.distributed.checkpoint's layout) load at any --tp/--fsdp, one process included.

#include <torch/torch.h>

#include <cmath>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "brasa/core/generator.h"
#include "brasa/distributed/checkpoint.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/tensor_parallel.h"
#include "model.h"

/// The tensor-parallel plan of one block: heads split across ranks (q/k/v column-parallel, the
/// projection row-parallel), the MLP column- then row-parallel; with `sequence_parallel` the
/// LayerNorms and the residual stream between the regions are sharded on the sequence dim.
inline brasa::distributed::ParallelizePlan char_gpt_block_plan(bool sequence_parallel) {
  namespace dist = brasa::distributed;
  if (sequence_parallel) {
    return {{"ln1", dist::SequenceParallel()},
            {"attn.qkv", dist::ColwiseParallel().fused(3).input_layouts(dist::Shard(1))},
            {"attn.proj", dist::RowwiseParallel().output_layouts(dist::Shard(1))},
            {"ln2", dist::SequenceParallel()},
            {"mlp.fc", dist::ColwiseParallel().input_layouts(dist::Shard(1))},
            {"mlp.proj", dist::RowwiseParallel().output_layouts(dist::Shard(1))}};
  }
  return {{"attn.qkv", dist::ColwiseParallel().fused(3)},
          {"attn.proj", dist::RowwiseParallel()},
          {"mlp.fc", dist::ColwiseParallel()},
          {"mlp.proj", dist::RowwiseParallel()}};
}

class ParallelGpt {
 public:
  /// Joins the process group when tp * fsdp > 1 (brasarun's environment); its size must be that.
  ParallelGpt(int64_t tp, int64_t fsdp, bool sequence_parallel = false)
      : tp_(tp), fsdp_(fsdp), sequence_parallel_(sequence_parallel) {
    if (tp * fsdp == 1) return;
    auto pg = brasa::distributed::init_process_group("gloo");
    rank_ = pg->getRank();
    if (pg->getSize() != tp * fsdp)
      throw std::runtime_error("--tp " + std::to_string(tp) + " x --fsdp " + std::to_string(fsdp) +
                               " needs " + std::to_string(tp * fsdp) + " processes, brasarun " +
                               "started " + std::to_string(pg->getSize()));
    if (tp > 1 && fsdp > 1) {
      auto mesh = brasa::distributed::init_device_mesh("cpu", {fsdp, tp}, {"dp", "tp"});
      dp_mesh_ = mesh["dp"];
      tp_mesh_ = mesh["tp"];
    } else if (tp > 1) {
      tp_mesh_ = brasa::distributed::init_device_mesh("cpu", {tp}, {"tp"});
    } else {
      dp_mesh_ = brasa::distributed::init_device_mesh("cpu", {fsdp}, {"dp"});
    }
  }
  ~ParallelGpt() {
    if (enabled()) brasa::distributed::destroy_process_group();
  }
  ParallelGpt(const ParallelGpt&) = delete;
  ParallelGpt& operator=(const ParallelGpt&) = delete;

  bool enabled() const { return tp_ * fsdp_ > 1; }
  bool is_main() const { return rank_ == 0; }
  int64_t tp() const { return tp_; }
  int64_t fsdp() const { return fsdp_; }

  /// Tensor parallel over "tp", then fully_shard over "dp". Before the optimizer is built.
  void shard(Gpt& model) {
    namespace dist = brasa::distributed;
    if (tp_mesh_) {
      for (const auto& block : *model->blocks)
        dist::parallelize_module(block, *tp_mesh_, block_plan());
      if (sequence_parallel_) {
        dist::parallelize_module(
            model, *tp_mesh_,
            {{"drop", dist::SequenceParallel().input_layouts(dist::Replicate())},
             {"ln_f", dist::SequenceParallel().output_layouts(dist::Replicate())}});
      }
    }
    if (!dp_mesh_) return;
    for (const auto& m : *model->blocks) {
      auto block = std::dynamic_pointer_cast<BlockImpl>(m);
      units_.push_back(dist::fully_shard(block, *dp_mesh_));
      auto* unit = &units_.back();
      brasa::nn::utils::set_forward_override(*block,
                                             [unit](const torch::Tensor& x) { return (*unit)(x); });
    }
    root_.emplace(dist::fully_shard(model, *dp_mesh_));
  }

  /// The model's forward (through the root unit under FSDP).
  torch::Tensor forward(Gpt& model, const torch::Tensor& idx) {
    return root_ ? (*root_)(idx) : model->forward(idx);
  }

  /// This "dp" rank's rows of a global batch.
  torch::Tensor local_rows(const torch::Tensor& batch) const {
    if (!dp_mesh_) return batch;
    const int64_t rows = batch.size(0) / fsdp_;
    return batch.slice(0, dp_mesh_->get_local_rank() * rows,
                       (dp_mesh_->get_local_rank() + 1) * rows);
  }

  /// The mean over the "dp" ranks (each has the mean loss of its equal share of the batch).
  double dp_mean(double value) const {
    if (!dp_mesh_) return value;
    std::vector<torch::Tensor> v{torch::tensor({value}, torch::kDouble)};
    brasa::distributed::AllreduceOptions avg;
    avg.reduceOp = brasa::distributed::ReduceOp::AVG;
    dp_mesh_->get_group()->allreduce(v, avg)->wait();
    return v[0].item<double>();
  }

  /// clip_grad_norm_ of the whole model: the squared norms of the local gradient pieces summed
  /// over every rank, pieces replicated over "tp" counted once.
  double clip_grad_norm(Gpt& model, double max_norm) {
    if (!enabled()) return torch::nn::utils::clip_grad_norm_(model->parameters(), max_norm);
    namespace dist = brasa::distributed;
    const bool tp_first = !tp_mesh_ || tp_mesh_->get_local_rank() == 0;
    torch::Tensor sq = torch::zeros({1}, torch::kDouble);
    std::vector<torch::Tensor> grads;
    for (const auto& p : model->parameters()) {
      const auto& g = p.grad();
      if (!g.defined()) continue;
      grads.push_back(g);
      const auto layout = dist::tensor_parallel_layout(p);
      const bool sharded = layout && !layout->placement.is_replicate();
      if ((sharded || tp_first) && g.numel() > 0) sq += g.to(torch::kDouble).pow(2).sum();
    }
    std::vector<torch::Tensor> v{sq};
    brasa::distributed::default_process_group()->allreduce(v)->wait();
    const double norm = std::sqrt(v[0].item<double>());
    const double coef = max_norm / (norm + 1e-6);
    if (coef < 1) {
      torch::NoGradGuard no_grad;
      for (auto& g : grads) g.mul_(coef);
    }
    return norm;
  }

  /// Writes model, optimizer, step and RNG state as a distributed checkpoint in `dir` (a
  /// collective; the previous one stays loadable until the new one is committed).
  void save(Gpt& model, torch::optim::Optimizer& optimizer, int64_t step, const std::string& dir) {
    namespace dcp = brasa::distributed::checkpoint;
    auto state = dcp::get_state_dict(*model, &optimizer, dp_mesh_);
    state.add("train.step", torch::tensor({step}, torch::kLong));
    state.add("train.rng", brasa::get_rng_state());
    dcp::save(state, dir);
  }

  /// Restores the checkpoint in `dir` laid out for this run (whatever --tp/--fsdp saved it);
  /// returns its step, 0 when `dir` holds none.
  int64_t resume(Gpt& model, torch::optim::Optimizer& optimizer, const std::string& dir) {
    namespace dcp = brasa::distributed::checkpoint;
    if (!std::filesystem::exists(std::filesystem::path(dir) / ".metadata")) {
      if (is_main()) std::printf("no checkpoint in %s: starting from scratch\n", dir.c_str());
      return 0;
    }
    dcp::load_state_dict(*model, &optimizer, dir, dp_mesh_);
    dcp::StateDict train;
    train.add("train.step", torch::zeros({1}, torch::kLong));
    train.add("train.rng", torch::zeros_like(brasa::get_rng_state()));
    dcp::load(train, dir);
    brasa::set_rng_state(train.find("train.rng")->local);
    const int64_t step = train.find("train.step")->local.item<int64_t>();
    if (is_main()) {
      std::printf("resumed at step %lld from %s (distributed checkpoint)\n",
                  static_cast<long long>(step), dir.c_str());
    }
    return step;
  }

 private:
  brasa::distributed::ParallelizePlan block_plan() const {
    return char_gpt_block_plan(sequence_parallel_);
  }

  int64_t tp_ = 1, fsdp_ = 1;
  bool sequence_parallel_ = false;
  int rank_ = 0;
  std::optional<brasa::distributed::DeviceMesh> dp_mesh_, tp_mesh_;
  std::deque<brasa::distributed::FSDPModule<std::shared_ptr<BlockImpl>>> units_;
  std::optional<brasa::distributed::FSDPModule<Gpt>> root_;
};
