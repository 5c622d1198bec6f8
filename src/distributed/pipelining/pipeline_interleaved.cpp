// ScheduleInterleaved1F1B: several stages per rank driven by one order of actions
// (pipeline_schedule_actions, Note [Pipeline schedules] in docs/distributed.md).

#include <algorithm>

#include "brasa/brasa.h"
#include "brasa/distributed/pipelining.h"

namespace brasa::distributed::pipelining {

ScheduleInterleaved1F1B::ScheduleInterleaved1F1B(std::vector<PipelineStage*> stages,
                                                 int64_t n_microbatches, LossFn loss_fn)
    : stages_(std::move(stages)), n_(n_microbatches), loss_fn_(std::move(loss_fn)) {
  BRASA_CHECK(!stages_.empty(), "ScheduleInterleaved1F1B: no stages");
  for (auto* s : stages_) BRASA_CHECK(s != nullptr, "ScheduleInterleaved1F1B: a null stage");
  std::sort(stages_.begin(), stages_.end(), [](const PipelineStage* a, const PipelineStage* b) {
    return a->stage_index() < b->stage_index();
  });
  PipelineStage& first = *stages_.front();
  ranks_ = first.group().getSize();
  const int64_t total = first.num_stages(), rank = first.group().getRank();
  const int64_t v = total / ranks_;
  BRASA_CHECK(ranks_ >= 2, "ScheduleInterleaved1F1B: a pipeline of ", total,
              " stages on one rank (its stages would send to themselves; run the model whole)");
  BRASA_CHECK(static_cast<int64_t>(stages_.size()) == v, "ScheduleInterleaved1F1B: ", total,
              " stages on ", ranks_, " ranks put ", v, " on every rank, but rank ", rank,
              " passed ", stages_.size());
  for (int64_t k = 0; k < v; ++k) {
    PipelineStage& s = *stages_[static_cast<size_t>(k)];
    BRASA_CHECK(&s.group() == &first.group() && s.num_stages() == total &&
                    s.stage_index() == k * ranks_ + rank,
                "ScheduleInterleaved1F1B: rank ", rank, " must hold stages ", rank, ", ",
                rank + ranks_, ", ... of ", total, " on one group; its stage ", k, " is stage ",
                s.stage_index(), " of ", s.num_stages());
    BRASA_CHECK_NOT_IMPLEMENTED(!s.data_parallel(),
                                "ScheduleInterleaved1F1B: stages wrapped in "
                                "DistributedDataParallel (DDP x PP runs GPipe or 1F1B)");
  }
  BRASA_CHECK(n_ >= 1, "ScheduleInterleaved1F1B: n_microbatches must be positive, got ", n_);
  BRASA_CHECK(!stages_.back()->is_last() || loss_fn_,
              "ScheduleInterleaved1F1B: the last stage needs a loss_fn");
  actions_ = pipeline_schedule_actions(PipelineScheduleKind::Interleaved1F1B, rank, ranks_, v, n_);
}

std::vector<Tensor> ScheduleInterleaved1F1B::step(const Tensor& input, const Tensor& target) {
  PipelineStage& first = *stages_.front();
  PipelineStage& last = *stages_.back();
  auto split = [this](const Tensor& t, const char* what) {
    BRASA_CHECK(t.defined() && t.dim() >= 1 && t.size(0) % n_ == 0, "ScheduleInterleaved1F1B: the ",
                what, " (shape ", t.defined() ? t.sizes() : IntArrayRef(),
                ") must split along dim 0 into ", n_, " equal micro-batches");
    return t.chunk(n_, 0);
  };
  std::vector<Tensor> inputs(static_cast<size_t>(n_)), targets(static_cast<size_t>(n_));
  if (first.is_first()) inputs = split(input, "input");
  if (last.is_last()) targets = split(target, "target");
  for (auto* s : stages_) s->begin_step(n_);
  PipelineStage::agree_shapes(stages_, first.is_first() ? inputs[0] : Tensor());
  for (const auto& a : actions_) {
    PipelineStage& s = *stages_[static_cast<size_t>(a.stage / ranks_)];
    const auto mb = static_cast<size_t>(a.microbatch);
    if (a.forward) {
      s.forward_one(a.microbatch, s.is_first() ? inputs[mb] : Tensor(),
                    s.is_last() ? targets[mb] : Tensor(), loss_fn_, n_);
    } else {
      s.backward_one(a.microbatch);
    }
  }
  std::vector<Tensor> losses;
  for (auto* s : stages_) {
    auto l = s->end_step();
    if (s->is_last()) losses = std::move(l);
  }
  return losses;
}

}  // namespace brasa::distributed::pipelining
