// The pipeline schedules: GPipe, 1F1B and interleaved 1F1B as orders of a rank's forwards and
// backwards
// (Note [Pipeline schedules] in docs/distributed.md).

#include "brasa/brasa.h"
#include "brasa/distributed/pipelining.h"

namespace brasa::distributed::pipelining {

PipelineSchedule::PipelineSchedule(PipelineStage& stage, int64_t n_microbatches, LossFn loss_fn)
    : stage_(stage), n_(n_microbatches), loss_fn_(std::move(loss_fn)) {
  BRASA_CHECK(n_ >= 1, "pipeline schedule: n_microbatches must be positive, got ", n_);
  BRASA_CHECK(!stage.is_last() || loss_fn_, "pipeline schedule: the last stage needs a loss_fn");
  BRASA_CHECK(stage.num_stages() == stage.group().getSize(),
              "pipeline schedule: GPipe and 1F1B run one stage per rank, but stage ",
              stage.stage_index(), " is one of ", stage.num_stages(), " on ",
              stage.group().getSize(), " ranks (use ScheduleInterleaved1F1B)");
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

namespace {

std::vector<std::pair<bool, int64_t>> as_pairs(const std::vector<PipelineAction>& actions) {
  std::vector<std::pair<bool, int64_t>> ops;
  for (const auto& a : actions) ops.emplace_back(a.forward, a.microbatch);
  return ops;
}

}  // namespace

std::vector<PipelineAction> pipeline_schedule_actions(PipelineScheduleKind kind, int64_t rank,
                                                      int64_t num_ranks, int64_t stages_per_rank,
                                                      int64_t n_microbatches) {
  const int64_t p = num_ranks, v = stages_per_rank, m = n_microbatches;
  BRASA_CHECK(p >= 1 && rank >= 0 && rank < p && v >= 1 && m >= 1,
              "pipeline_schedule_actions: rank ", rank, " of ", p, " ranks, ", v,
              " stages per rank, ", m, " micro-batches");
  BRASA_CHECK(kind == PipelineScheduleKind::Interleaved1F1B || v == 1,
              "pipeline_schedule_actions: GPipe and 1F1B run one stage per rank, not ", v,
              " (use ScheduleInterleaved1F1B)");
  std::vector<PipelineAction> ops;
  if (kind == PipelineScheduleKind::GPipe) {
    for (int64_t i = 0; i < m; ++i) ops.push_back({true, rank, i});
    for (int64_t i = 0; i < m; ++i) ops.push_back({false, rank, i});
    return ops;
  }
  if (kind == PipelineScheduleKind::OneFOneB) {
    const int64_t warmup = std::min(m, p - rank - 1);
    int64_t f = 0, b = 0;
    while (f < warmup) ops.push_back({true, rank, f++});
    while (f < m) {
      ops.push_back({true, rank, f++});
      ops.push_back({false, rank, b++});
    }
    while (b < m) ops.push_back({false, rank, b++});
    return ops;
  }
  BRASA_CHECK(m % p == 0, "ScheduleInterleaved1F1B: ", m,
              " micro-batches must be a multiple of the ", p, " pipeline ranks");
  // Note [Pipeline schedules]: the k-th forward of a rank is micro-batch g p + (k mod p) of its
  // local stage c, where k = g p v + c p + (k mod p): rounds of p micro-batches, each through
  // the rank's stages in order. Backwards go through the stages in reverse. Warm-up: the forwards
  // the rank must run before its first backward can arrive.
  const int64_t total = m * v;
  auto at = [&](int64_t k, bool forward) {
    const int64_t round = k / (p * v), within = k % (p * v);
    const int64_t local = forward ? within / p : v - 1 - within / p;
    return PipelineAction{forward, local * p + rank, round * p + within % p};
  };
  const int64_t warmup = std::min(total, 2 * (p - rank - 1) + (v - 1) * p);
  int64_t f = 0, b = 0;
  while (f < warmup) ops.push_back(at(f++, true));
  while (f < total) {
    ops.push_back(at(f++, true));
    ops.push_back(at(b++, false));
  }
  while (b < total) ops.push_back(at(b++, false));
  return ops;
}

std::vector<std::pair<bool, int64_t>> ScheduleGPipe::order() const {
  return as_pairs(pipeline_schedule_actions(PipelineScheduleKind::GPipe, stage_.stage_index(),
                                            stage_.num_stages(), 1, n_));
}

std::vector<std::pair<bool, int64_t>> Schedule1F1B::order() const {
  return as_pairs(pipeline_schedule_actions(PipelineScheduleKind::OneFOneB, stage_.stage_index(),
                                            stage_.num_stages(), 1, n_));
}

}  // namespace brasa::distributed::pipelining
