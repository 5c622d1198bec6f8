// The pipeline schedules: GPipe and 1F1B as orders of a stage's forwards and backwards
// (Note [Pipeline schedules] in docs/distributed.md).

#include "brasa/brasa.h"
#include "brasa/distributed/pipelining.h"

namespace brasa::distributed::pipelining {

PipelineSchedule::PipelineSchedule(PipelineStage& stage, int64_t n_microbatches, LossFn loss_fn)
    : stage_(stage), n_(n_microbatches), loss_fn_(std::move(loss_fn)) {
  BRASA_CHECK(n_ >= 1, "pipeline schedule: n_microbatches must be positive, got ", n_);
  BRASA_CHECK(!stage.is_last() || loss_fn_, "pipeline schedule: the last stage needs a loss_fn");
}

std::vector<Tensor> PipelineSchedule::step(const Tensor& input, const Tensor& target) {
  auto split = [this](const Tensor& t, const char* what) {
    BRASA_CHECK(t.defined() && t.dim() >= 1 && t.size(0) % n_ == 0, "pipeline stage ",
                stage_.stage_index(), ": the ", what, " (shape ",
                t.defined() ? t.sizes() : IntArrayRef(), ") must split along dim 0 into ", n_,
                " equal micro-batches");
    return t.chunk(n_, 0);
  };
  std::vector<Tensor> inputs(static_cast<size_t>(n_)), targets(static_cast<size_t>(n_));
  if (stage_.is_first()) inputs = split(input, "input");
  if (stage_.is_last()) targets = split(target, "target");
  stage_.begin_step(n_);
  stage_.agree_shapes(stage_.is_first() ? inputs[0] : Tensor());
  for (const auto& [forward, mb] : order()) {
    if (forward) {
      stage_.forward_one(mb, inputs[static_cast<size_t>(mb)], targets[static_cast<size_t>(mb)],
                         loss_fn_, n_);
    } else {
      stage_.backward_one(mb);
    }
  }
  return stage_.end_step();
}

std::vector<std::pair<bool, int64_t>> ScheduleGPipe::order() const {
  std::vector<std::pair<bool, int64_t>> ops;
  for (int64_t i = 0; i < n_; ++i) ops.emplace_back(true, i);
  for (int64_t i = 0; i < n_; ++i) ops.emplace_back(false, i);
  return ops;
}

std::vector<std::pair<bool, int64_t>> Schedule1F1B::order() const {
  std::vector<std::pair<bool, int64_t>> ops;
  const int64_t warmup = std::min(n_, stage_.num_stages() - stage_.stage_index() - 1);
  int64_t f = 0, b = 0;
  while (f < warmup) ops.emplace_back(true, f++);
  while (f < n_) {
    ops.emplace_back(true, f++);
    ops.emplace_back(false, b++);
  }
  while (b < n_) ops.emplace_back(false, b++);
  return ops;
}

}  // namespace brasa::distributed::pipelining
