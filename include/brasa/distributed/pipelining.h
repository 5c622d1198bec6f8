#pragma once
// Pipeline parallelism (torch.distributed.pipelining): a model split into stages, one per rank of
// a process group (or several: ScheduleInterleaved1F1B), trained on micro-batches that flow forward
// stage to stage (activations sent with send/recv) and back (gradients of the activations), the
// loss computed on the last stage. Note [Pipeline schedules] in docs/distributed.md.
//
// clang-format off
//   auto stage_module = pipeline_split(model, rank, world);     // modules [a, b) of a Sequential
//   PipelineStage stage(stage_module, rank, world, group);
//   ScheduleGPipe schedule(stage, /*n_microbatches=*/4, mse_loss);   // or Schedule1F1B
//   if (rank == 0) schedule.step(x);                             // first stage: the batch
//   else if (rank == world - 1) losses = schedule.step({}, y);   // last stage: the targets
//   else schedule.step();
//   optimizer.step();                                            // over the stage's parameters
// clang-format on
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

/// One stage: its module and its place in the pipeline. With one stage per rank, stage s runs on
/// group rank s; with v stages per rank (ScheduleInterleaved1F1B, num_stages = v x the group's
/// size), stage s runs on group rank s % size (rank r holds stages r, r + size, r + 2 size, ...).
class BRASA_API PipelineStage {
 public:
  /// `group`: the ranks of the pipeline (null: the default group). ValueError unless num_stages
  /// is a multiple of its size and stage_index % size is this process's rank in it.
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
  /// The same for all the stages this rank holds (in increasing order): the shape header passes
  /// through them in stage order, then one all-gather says which stages failed.
  static void agree_shapes(const std::vector<PipelineStage*>& local_stages,
                           const Tensor& first_input);
  /// Whether a DistributedDataParallel reducer drives this stage's gradients (DDP x PP).
  bool data_parallel() const { return reducer_ != nullptr; }
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
  // The header step of agree_shapes: receives it (stages after the first), checks and sends it on.
  // Returns whether the shapes are being agreed anew; problem_ holds this stage's failure.
  bool exchange_header(const Tensor& first_input);
  int prev_rank() const;
  int next_rank() const;
  // Tags of the messages between stage s and s + 1 (Note [Pipeline schedules]).
  int data_tag(int64_t boundary, int64_t mb, bool backward) const;

  nn::Sequential module_;
  int64_t stage_, num_stages_;
  IntrusivePtr<ProcessGroup> group_;
  std::optional<std::vector<int64_t>> declared_input_;
  std::vector<int64_t> in_shape_, out_shape_;
  ScalarType dtype_ = ScalarType::Float;      // of the input
  ScalarType out_dtype_ = ScalarType::Float;  // of the output
  bool agreed_ = false;
  std::string problem_;  // of the shape agreement in progress
  std::vector<int64_t> pending_in_, pending_out_;
  ScalarType pending_dtype_ = ScalarType::Float, pending_out_dtype_ = ScalarType::Float;
  int64_t n_ = 1;  // micro-batches in this step
  std::vector<std::unique_ptr<MicroBatch>> mbs_;
  std::vector<IntrusivePtr<Work>> sends_;
  std::vector<Tensor> sent_;  // kept alive until their sends complete
  double wait_seconds_ = 0, compute_seconds_ = 0;
  int64_t live_ = 0, peak_live_ = 0;
  Reducer* reducer_ = nullptr;  // DDP x PP: the data-parallel reducer of the stage's module
  int64_t backwards_left_ = 0;  // in this step: the last one synchronises
};

using LossFn = std::function<Tensor(const Tensor& output, const Tensor& target)>;

/// One operation of a schedule: the forward or backward of micro-batch `microbatch` on stage
/// `stage` (a global stage index).
struct PipelineAction {
  bool forward;
  int64_t stage;
  int64_t microbatch;
  bool operator==(const PipelineAction& o) const {
    return forward == o.forward && stage == o.stage && microbatch == o.microbatch;
  }
};

enum class PipelineScheduleKind : uint8_t { GPipe, OneFOneB, Interleaved1F1B };

/// The operations group rank `rank` of `num_ranks` runs in one step of `kind`, in order, with
/// `stages_per_rank` stages per rank (1 for GPipe and 1F1B) over n_microbatches micro-batches
/// (Note [Pipeline schedules]). ValueError for a combination the schedule does not take.
BRASA_API std::vector<PipelineAction> pipeline_schedule_actions(PipelineScheduleKind kind,
                                                                int64_t rank, int64_t num_ranks,
                                                                int64_t stages_per_rank,
                                                                int64_t n_microbatches);

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

/// Interleaved 1F1B (Megatron-LM's, torch.distributed.pipelining's ScheduleInterleaved1F1B):
/// each rank holds v stages (r, r + p, ...); micro-batches go through them in rounds of p, and
/// the bubble shrinks to (p - 1) / (v m + p - 1) of the step. n_microbatches must be a multiple
/// of the group's size p, and p at least 2. `stages`: this rank's stages, any order.
class BRASA_API ScheduleInterleaved1F1B {
 public:
  ScheduleInterleaved1F1B(std::vector<PipelineStage*> stages, int64_t n_microbatches,
                          LossFn loss_fn);
  /// As PipelineSchedule::step: `input` on the rank holding stage 0 (group rank 0), `target` on
  /// the rank holding the last stage (the last group rank), which gets the losses.
  std::vector<Tensor> step(const Tensor& input = {}, const Tensor& target = {});
  int64_t n_microbatches() const { return n_; }
  const std::vector<PipelineAction>& actions() const { return actions_; }

 private:
  std::vector<PipelineStage*> stages_;  // by increasing stage index
  int64_t n_;
  LossFn loss_fn_;
  int64_t ranks_;
  std::vector<PipelineAction> actions_;
};

/// A schedule-level simulation: every rank runs pipeline_schedule_actions(kind, ...) in order,
/// an operation starting when its rank is free and its input has arrived (`latency` after the
/// previous stage's forward or the next stage's backward ended; 0: free communication), a stage's
/// forward taking forward_time / stages_per_rank and its backward backward_time /
/// stages_per_rank.
struct PipelineSimulation {
  double makespan = 0;         // the step's length
  std::vector<double> idle;    // per rank: makespan minus its busy time
  double bubble_fraction = 0;  // mean over ranks of idle / makespan
  std::vector<std::vector<std::pair<double, double>>> busy;  // per rank: (start, end) per action
};
/// ValueError when the actions cannot all run (a deadlock: a rank waits for an operation that
/// waits for it).
BRASA_API PipelineSimulation simulate_pipeline_schedule(
    PipelineScheduleKind kind, int64_t num_ranks, int64_t stages_per_rank, int64_t n_microbatches,
    double forward_time = 1.0, double backward_time = 2.0, double latency = 0.0);

}  // namespace brasa::distributed::pipelining
