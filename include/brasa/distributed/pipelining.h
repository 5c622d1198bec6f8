#pragma once
// Pipeline parallelism (torch.distributed.pipelining): a model split into stages, one per rank of
// a process group, trained on micro-batches that flow forward stage to stage (activations sent
// with send/recv) and back (gradients of the activations), the loss computed on the last stage.
// Note [Pipeline schedules] in docs/distributed.md.
//
//   auto stage_module = pipeline_split(model, rank, world);        // modules [a, b) of a
//   Sequential PipelineStage stage(stage_module, rank, world, group); ScheduleGPipe schedule(stage,
//   /*n_microbatches=*/4, mse_loss);   // or Schedule1F1B if (rank == 0) schedule.step(x); // first
//   stage: the batch else if (rank == world - 1) losses = schedule.step({}, y);       // last
//   stage: the targets else schedule.step(); optimizer.step(); // over the stage's parameters
//
// The batch is split along dim 0 into n_microbatches equal parts (ValueError when they are not
// equal). Every micro-batch's loss is divided by n_microbatches before its backward, so the
// stages' accumulated gradients equal those of single-process training on the whole batch with a
// mean loss (gradient accumulation over the same micro-batches).
//
// Shapes are static: on the first step (and whenever the micro-batch shape changes on the first
// stage) the stages agree on their activation shapes: each runs its module without gradients on
// zeros of the shape the previous stage produces, checks it against its declared input shape (if
// any), and the group learns whether every stage accepted its input; otherwise every stage throws
// PipeliningShapeError (the stage at fault names the shapes and the cause).

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "brasa/distributed/process_group.h"
#include "brasa/nn/modules/container/sequential.h"

namespace brasa::distributed {
class Reducer;  // brasa/distributed/ddp.h
}

namespace brasa::distributed::pipelining {

/// A stage's input or output did not have the shape the pipeline needs.
class BRASA_API PipeliningShapeError : public ValueError {
 public:
  using ValueError::ValueError;
};

/// The modules of `model` that stage `stage` of `num_stages` runs, as a Sequential sharing them:
/// without `boundaries`, consecutive runs of size(model) / num_stages modules (the first ones one
/// longer when it does not divide); with them, stage s runs modules [boundaries[s - 1],
/// boundaries[s]) (num_stages - 1 increasing indices). ValueError for fewer modules than stages or
/// bad boundaries.
BRASA_API nn::Sequential pipeline_split(const nn::Sequential& model, int64_t stage,
                                        int64_t num_stages,
                                        const std::vector<int64_t>& boundaries = {});

/// One rank's stage: its module and its place in the pipeline.
class BRASA_API PipelineStage {
 public:
  /// `group`: the ranks of the pipeline, stage s on group rank s (null: the default group).
  /// `input_shape`: the shape of one micro-batch's input, checked on the first step (optional).
  PipelineStage(nn::Sequential module, int64_t stage_index, int64_t num_stages,
                IntrusivePtr<ProcessGroup> group = {},
                std::optional<std::vector<int64_t>> input_shape = std::nullopt);
  /// DDP x PP: a stage whose module `ddp` makes data parallel over the ranks that hold the same
  /// stage (a mesh's "dp" group; `group` is the pipeline's, "pp"). In each step the backwards of
  /// all micro-batches but the last accumulate gradients locally (DDP's no_sync); the last one's
  /// backward runs DDP's reducer, which all-reduces the accumulated sums bucket by bucket as they
  /// become ready and averages them over "dp" (Note [Pipeline schedules]).
  /// (`ddp`: a DistributedDataParallel<nn::Sequential>, brasa/distributed/ddp.h.)
  template <typename DDP, typename = decltype(std::declval<DDP&>().reducer())>
  PipelineStage(DDP& ddp, int64_t stage_index, int64_t num_stages,
                IntrusivePtr<ProcessGroup> group = {},
                std::optional<std::vector<int64_t>> input_shape = std::nullopt)
      : PipelineStage(ddp.module(), stage_index, num_stages, std::move(group),
                      std::move(input_shape)) {
    reducer_ = &ddp.reducer();
  }

  int64_t stage_index() const { return stage_; }
  int64_t num_stages() const { return num_stages_; }
  bool is_first() const { return stage_ == 0; }
  bool is_last() const { return stage_ == num_stages_ - 1; }
  nn::Sequential& module() { return module_; }
  ProcessGroup& group() const { return *group_; }

  /// The shapes the first step agreed on (empty before it).
  const std::vector<int64_t>& input_shape() const { return in_shape_; }
  const std::vector<int64_t>& output_shape() const { return out_shape_; }

  // The schedules' steps (Note [Pipeline schedules]).
  struct MicroBatch;
  void agree_shapes(const Tensor& first_input);
  void forward_one(int64_t mb, const Tensor& input, const Tensor& target,
                   const std::function<Tensor(const Tensor&, const Tensor&)>& loss_fn,
                   int64_t n_microbatches);
  void backward_one(int64_t mb);
  void begin_step(int64_t n_microbatches);
  std::vector<Tensor> end_step();  // waits for the sends; the losses (last stage)

  /// Seconds this stage spent waiting in recv during the last step, and computing.
  double last_wait_seconds() const { return wait_seconds_; }
  double last_compute_seconds() const { return compute_seconds_; }
  /// The most micro-batches whose activations this stage held at once during the last step
  /// (forward done, backward not yet): n_microbatches for GPipe, at most num_stages - stage for
  /// 1F1B.
  int64_t last_peak_live_microbatches() const { return peak_live_; }

  ~PipelineStage();
  PipelineStage(const PipelineStage&) = delete;
  PipelineStage& operator=(const PipelineStage&) = delete;

 private:
  Tensor recv(const std::vector<int64_t>& shape, ScalarType dtype, int src, int tag);
  void send(const Tensor& t, int dst, int tag);

  nn::Sequential module_;
  int64_t stage_, num_stages_;
  IntrusivePtr<ProcessGroup> group_;
  std::optional<std::vector<int64_t>> declared_input_;
  std::vector<int64_t> in_shape_, out_shape_;
  ScalarType dtype_ = ScalarType::Float;      // of the input
  ScalarType out_dtype_ = ScalarType::Float;  // of the output
  bool agreed_ = false;
  std::vector<std::unique_ptr<MicroBatch>> mbs_;
  std::vector<IntrusivePtr<Work>> sends_;
  std::vector<Tensor> sent_;  // kept alive until their sends complete
  double wait_seconds_ = 0, compute_seconds_ = 0;
  int64_t live_ = 0, peak_live_ = 0;
  Reducer* reducer_ = nullptr;  // DDP x PP: the data-parallel reducer of the stage's module
  int64_t backwards_left_ = 0;  // in this step: the last one synchronises
};

using LossFn = std::function<Tensor(const Tensor& output, const Tensor& target)>;

/// Runs one training step's forwards and backwards over the micro-batches (no optimizer step).
class BRASA_API PipelineSchedule {
 public:
  PipelineSchedule(PipelineStage& stage, int64_t n_microbatches, LossFn loss_fn);
  virtual ~PipelineSchedule() = default;
  /// First stage: `input` is the whole batch. Last stage: `target` is the whole batch's targets;
  /// returns the micro-batches' losses (unscaled). Other stages pass nothing. The stage's
  /// parameters' .grad accumulate (zero them before, step the optimizer after).
  std::vector<Tensor> step(const Tensor& input = {}, const Tensor& target = {});
  int64_t n_microbatches() const { return n_; }

 protected:
  /// The order of this stage's operations: (true, i) forward of micro-batch i, (false, i) its
  /// backward.
  virtual std::vector<std::pair<bool, int64_t>> order() const = 0;
  PipelineStage& stage_;
  int64_t n_;
  LossFn loss_fn_;
};

/// GPipe: every micro-batch's forward, then every backward (fill, drain).
class BRASA_API ScheduleGPipe : public PipelineSchedule {
 public:
  using PipelineSchedule::PipelineSchedule;

 protected:
  std::vector<std::pair<bool, int64_t>> order() const override;
};

/// 1F1B: num_stages - stage - 1 warm-up forwards, then one forward and one backward alternately,
/// then the remaining backwards; at most num_stages - stage micro-batches' activations alive.
class BRASA_API Schedule1F1B : public PipelineSchedule {
 public:
  using PipelineSchedule::PipelineSchedule;

 protected:
  std::vector<std::pair<bool, int64_t>> order() const override;
};

}  // namespace brasa::distributed::pipelining
