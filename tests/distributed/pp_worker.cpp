// One rank of the pipeline-parallel tests (tests/distributed/test_pipelining.cpp), started by
// brasarun:
//   pp_worker train gpipe|1f1b|interleaved STEPS MB OUT [--dp | --ddp]
//     a Sequential of 8 modules split into one stage per rank (with --dp on 4 ranks: a 2 x 2 mesh,
//     pipelines of 2 stages over "pp", gradients averaged over "dp" by hand after each step; with
//     --ddp the same mesh with each stage wrapped in DistributedDataParallel over "dp", whose
//     reducer the stage runs in the last backward of each step); STEPS AdamW steps on a global
//     batch of 16 in MB micro-batches (per data-parallel rank); stage s writes its parameters to
//     OUT.stage<s>.pt. interleaved: two stages per rank (2 x ranks stages; rank r holds r and
//     r + ranks), ScheduleInterleaved1F1B.
//   pp_worker reference STEPS MB OUT
//     one process: the whole model, the same batches, gradients accumulated over MB micro-batches.
//   pp_worker mismatch
//     stage 1's first Linear takes 9 features where stage 0 gives 10: PipeliningShapeError on
//     every rank (exit 0 when so).
//   pp_worker mismatch-interleaved
//     the same with two stages per rank under ScheduleInterleaved1F1B.
//   pp_worker bench gpipe|1f1b|interleaved MB
//     two 512-wide Linear layers per rank (interleaved: two stages of one each), 64 rows per
//     micro-batch: step time, per-rank compute and wait (bubble) fractions.
//   pp_worker bench-sleep gpipe|1f1b|interleaved MB [FORWARD_MS]
//     the same schedules with stages that sleep instead of computing (a rank's share of a
//     micro-batch: FORWARD_MS forward, default 8, twice that backward), so that the ranks do not
//     compete for this machine's cores: the real schedule's idle time, send/recv included.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/distributed/ddp.h"
#include "brasa/distributed/device_mesh.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/pipelining.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;
namespace pp = brasa::distributed::pipelining;

constexpr int64_t kIn = 6, kWidth = 10, kGlobalBatch = 16;
constexpr int64_t kBenchWidth = 512, kBenchRows = 64;  // bench: per stage 2 Linear layers

nn::Sequential make_model(int64_t first_in_of_stage1 = kWidth) {
  manual_seed(11);
  return nn::Sequential(nn::Linear(kIn, kWidth), nn::Tanh(), nn::Linear(first_in_of_stage1, kWidth),
                        nn::Tanh(), nn::Linear(kWidth, kWidth), nn::Tanh(),
                        nn::Linear(kWidth, kWidth), nn::Linear(kWidth, kIn));
}

void batch(int64_t step, Tensor& x, Tensor& y) {
  x = empty({kGlobalBatch, kIn}, kDouble);
  y = empty({kGlobalBatch, kIn}, kDouble);
  for (int64_t i = 0; i < kGlobalBatch * kIn; ++i) {
    const double k = static_cast<double>(step * 1000 + i);
    x.data_ptr<double>()[i] = std::sin(k * 0.37);
    y.data_ptr<double>()[i] = std::cos(k * 0.23) * 0.5;
  }
}

pp::LossFn mse() {
  return
      [](const Tensor& out, const Tensor& target) { return nn::functional::mse_loss(out, target); };
}

std::unique_ptr<pp::PipelineSchedule> make_schedule(const std::string& kind, pp::PipelineStage& s,
                                                    int64_t mb) {
  if (kind == "gpipe") return std::make_unique<pp::ScheduleGPipe>(s, mb, mse());
  if (kind == "1f1b") return std::make_unique<pp::Schedule1F1B>(s, mb, mse());
  throw std::runtime_error("unknown schedule " + kind);
}

optim::AdamW make_optimizer(const std::vector<Tensor>& params) {
  return optim::AdamW(params, optim::AdamWOptions(0.01).weight_decay(0.05));
}

int reference(int64_t steps, int64_t mb, const std::string& out) {
  auto model = make_model();
  auto model_ptr = model.ptr();
  model->to(kDouble);
  auto opt = make_optimizer(model->parameters());
  for (int64_t s = 0; s < steps; ++s) {
    opt.zero_grad();
    Tensor x, y;
    batch(s, x, y);
    auto xs = x.chunk(mb, 0), ys = y.chunk(mb, 0);
    for (int64_t i = 0; i < mb; ++i) {
      (nn::functional::mse_loss(model->forward(xs[static_cast<size_t>(i)]),
                                ys[static_cast<size_t>(i)]) /
       static_cast<double>(mb))
          .backward();
    }
    opt.step();
  }
  brasa::save(model->parameters(), out);
  return 0;
}

// Two stages per rank under ScheduleInterleaved1F1B; each rank saves its stages' parameters.
int train_interleaved(const nn::Sequential& model, const IntrusivePtr<dist::ProcessGroup>& g,
                      int64_t steps, int64_t mb, const std::string& out) {
  const int64_t ranks = g->getSize(), rank = g->getRank(), v = 2, stages = ranks * v;
  std::vector<nn::Sequential> parts;
  std::vector<std::unique_ptr<pp::PipelineStage>> owned;
  std::vector<pp::PipelineStage*> mine;
  std::vector<Tensor> params;
  for (int64_t k = 0; k < v; ++k) {
    const int64_t s = k * ranks + rank;
    parts.push_back(pp::pipeline_split(model, s, stages));
    owned.push_back(std::make_unique<pp::PipelineStage>(parts.back(), s, stages, g));
    mine.push_back(owned.back().get());
    for (const auto& p : parts.back()->parameters()) params.push_back(p);
  }
  pp::ScheduleInterleaved1F1B schedule(mine, mb, mse());
  auto opt = make_optimizer(params);
  for (int64_t s = 0; s < steps; ++s) {
    opt.zero_grad();
    Tensor x, y;
    batch(s, x, y);
    const bool first = rank == 0, last = rank == ranks - 1;
    std::vector<Tensor> losses = schedule.step(first ? x : Tensor(), last ? y : Tensor());
    if (last && losses.size() != static_cast<size_t>(mb))
      throw std::runtime_error("the last stage returned " + std::to_string(losses.size()) +
                               " losses for " + std::to_string(mb) + " micro-batches");
    opt.step();
  }
  for (int64_t k = 0; k < v; ++k) {
    brasa::save(parts[static_cast<size_t>(k)]->parameters(),
                out + ".stage" + std::to_string(k * ranks + rank) + ".pt");
  }
  owned.clear();
  dist::destroy_process_group();
  return 0;
}

int train(const std::string& kind, int64_t steps, int64_t mb, const std::string& out, bool dp,
          bool ddp_class) {
  auto world = dist::init_process_group("gloo");
  std::optional<dist::DeviceMesh> mesh;
  IntrusivePtr<dist::ProcessGroup> pp_group = world, dp_group;
  int64_t dp_rank = 0, dp_size = 1;
  if (dp) {
    mesh = dist::init_device_mesh("cpu", {2, world->getSize() / 2}, {"dp", "pp"});
    pp_group = mesh->get_group("pp");
    dp_group = mesh->get_group("dp");
    dp_rank = mesh->get_local_rank("dp");
    dp_size = mesh->size(0);
  }
  const int64_t stages = pp_group->getSize(), stage = pp_group->getRank();
  auto model = make_model();
  model->to(kDouble);
  if (kind == "interleaved") return train_interleaved(model, pp_group, steps, mb, out);
  auto part = pp::pipeline_split(model, stage, stages);
  // --ddp: DistributedDataParallel wraps the stage over "dp" and the stage drives its reducer.
  std::optional<dist::DistributedDataParallel<nn::Sequential>> ddp;
  if (ddp_class) ddp.emplace(part, dp_group);
  std::optional<pp::PipelineStage> stage_storage;
  if (ddp) {
    stage_storage.emplace(*ddp, stage, stages, pp_group);
  } else {
    stage_storage.emplace(part, stage, stages, pp_group);
  }
  pp::PipelineStage& pstage = *stage_storage;
  auto schedule = make_schedule(kind, pstage, mb);
  auto opt = make_optimizer(part->parameters());
  const int64_t local = kGlobalBatch / dp_size;
  for (int64_t s = 0; s < steps; ++s) {
    opt.zero_grad();
    Tensor x, y;
    batch(s, x, y);
    x = x.narrow(0, dp_rank * local, local);
    y = y.narrow(0, dp_rank * local, local);
    std::vector<Tensor> losses;
    if (pstage.is_first()) {
      schedule->step(x);
    } else if (pstage.is_last()) {
      losses = schedule->step({}, y);
    } else {
      schedule->step();
    }
    if (dp_group && !ddp) {  // by hand: average the stage's gradients over "dp"
      for (auto& p : part->parameters()) {
        std::vector<Tensor> g{p.grad()};
        dp_group->allreduce(g)->wait();
        p.grad().div_(static_cast<double>(dp_size));
      }
    }
    opt.step();
    // GPipe holds every micro-batch's activations; 1F1B at most num_stages - stage.
    const int64_t peak = pstage.last_peak_live_microbatches();
    const int64_t bound = kind == "gpipe" ? mb : std::min(mb, stages - stage);
    if (peak != bound) {
      throw std::runtime_error("stage " + std::to_string(stage) + " held " + std::to_string(peak) +
                               " micro-batches' activations, expected " + std::to_string(bound));
    }
    if (pstage.is_last() && s + 1 == steps) {
      double total = 0;
      for (const auto& l : losses) total += l.item<double>();
      std::printf("stage %lld: last step mean micro-batch loss %.6f\n",
                  static_cast<long long>(stage), total / static_cast<double>(losses.size()));
    }
  }
  if (dp_rank == 0) brasa::save(part->parameters(), out + ".stage" + std::to_string(stage) + ".pt");
  dist::destroy_process_group();
  return 0;
}

int mismatch() {
  auto world = dist::init_process_group("gloo");
  const int64_t stages = world->getSize(), stage = world->getRank();
  auto model = make_model(/*first_in_of_stage1=*/9);
  model->to(kDouble);
  pp::PipelineStage pstage(pp::pipeline_split(model, stage, stages), stage, stages);
  pp::ScheduleGPipe schedule(pstage, 4, mse());
  Tensor x, y;
  batch(0, x, y);
  try {
    if (pstage.is_first()) {
      schedule.step(x);
    } else if (pstage.is_last()) {
      schedule.step({}, y);
    } else {
      schedule.step();
    }
  } catch (const pp::PipeliningShapeError& e) {
    const std::string msg = e.what();
    std::printf("stage %lld: %s\n", static_cast<long long>(stage), msg.c_str());
    const bool named = stage == 1 ? msg.find("[4, 10]") != std::string::npos &&
                                        msg.find("stage 0 sends") != std::string::npos
                                  : msg.find("stage 1 rejected") != std::string::npos;
    dist::destroy_process_group();
    return named ? 0 : 1;
  }
  std::fprintf(stderr, "stage %lld: no PipeliningShapeError\n", static_cast<long long>(stage));
  return 1;
}

// The same mismatch with two stages per rank (ScheduleInterleaved1F1B): stage 1 (rank 1) names
// the shapes, every other stage's rank names stage 1.
int mismatch_interleaved() {
  auto world = dist::init_process_group("gloo");
  const int64_t ranks = world->getSize(), rank = world->getRank(), stages = 2 * ranks;
  auto model = make_model(/*first_in_of_stage1=*/9);
  model->to(kDouble);
  std::vector<std::unique_ptr<pp::PipelineStage>> owned;
  std::vector<pp::PipelineStage*> mine;
  for (int64_t k = 0; k < 2; ++k) {
    const int64_t s = k * ranks + rank;
    owned.push_back(
        std::make_unique<pp::PipelineStage>(pp::pipeline_split(model, s, stages), s, stages));
    mine.push_back(owned.back().get());
  }
  pp::ScheduleInterleaved1F1B schedule(mine, 4, mse());
  Tensor x, y;
  batch(0, x, y);
  try {
    schedule.step(rank == 0 ? x : Tensor(), rank == ranks - 1 ? y : Tensor());
  } catch (const pp::PipeliningShapeError& e) {
    const std::string msg = e.what();
    std::printf("rank %lld: %s\n", static_cast<long long>(rank), msg.c_str());
    const bool named = rank == 1 ? msg.find("[4, 10]") != std::string::npos &&
                                       msg.find("stage 0 sends") != std::string::npos
                                 : msg.find("stage 1 rejected") != std::string::npos;
    owned.clear();
    dist::destroy_process_group();
    return named ? 0 : 1;
  }
  std::fprintf(stderr, "rank %lld: no PipeliningShapeError\n", static_cast<long long>(rank));
  return 1;
}

// bench-sleep's stage: its forward sleeps `forward_ms`, its backward (a hook on its output's
// gradient) `backward_ms`; the scalar weight makes every output require grad.
struct SleeperImpl : nn::Module {
  SleeperImpl(double forward_ms, double backward_ms)
      : forward_ms(forward_ms), backward_ms(backward_ms) {
    w = register_parameter("w", ones({1}));
  }
  Tensor forward(const Tensor& x) {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(forward_ms));
    Tensor y = x * w;
    const double b = backward_ms;
    if (y.requires_grad()) {
      y.register_hook([b](const Tensor& g) {
        std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(b));
        return g;
      });
    }
    return y;
  }
  double forward_ms, backward_ms;
  Tensor w;
};
BRASA_MODULE(Sleeper);

int bench(const std::string& kind, int64_t mb, bool sleep, double forward_ms = 8.0) {
  auto world = dist::init_process_group("gloo");
  const int64_t ranks = world->getSize(), rank = world->getRank();
  const int64_t v = kind == "interleaved" ? 2 : 1, stages = ranks * v;
  manual_seed(5);
  nn::Sequential model;
  for (int64_t i = 0; i < 2 * ranks; ++i) {
    if (sleep) {  // a rank's share: forward_ms forward, twice that backward per micro-batch
      model->push_back(Sleeper(forward_ms / 2, forward_ms));
      continue;
    }
    model->push_back(nn::Linear(kBenchWidth, kBenchWidth));
    model->push_back(nn::Tanh());
  }
  std::vector<nn::Sequential> parts;
  std::vector<std::unique_ptr<pp::PipelineStage>> owned;
  std::vector<pp::PipelineStage*> mine;
  for (int64_t k = 0; k < v; ++k) {
    parts.push_back(pp::pipeline_split(model, k * ranks + rank, stages));
    owned.push_back(std::make_unique<pp::PipelineStage>(parts.back(), k * ranks + rank, stages));
    mine.push_back(owned.back().get());
  }
  std::unique_ptr<pp::PipelineSchedule> schedule;
  std::optional<pp::ScheduleInterleaved1F1B> interleaved;
  if (v > 1) {
    interleaved.emplace(mine, mb, mse());
  } else {
    schedule = make_schedule(kind, *mine[0], mb);
  }
  const int64_t width = sleep ? 4 : kBenchWidth, rows = sleep ? 1 : kBenchRows;
  Tensor x = randn({mb * rows, width}), y = randn({mb * rows, width});
  const bool first = rank == 0, last = rank == ranks - 1;
  double wall = 0, compute = 0, wait = 0, makespan = 0;
  const int steps = 6;
  for (int s = 0; s < steps; ++s) {
    for (auto& part : parts) {
      for (auto& p : part->parameters()) {
        if (p.grad().defined()) p.grad().zero_();
      }
    }
    world->barrier()->wait();
    const auto t0 = std::chrono::steady_clock::now();
    if (interleaved) {
      interleaved->step(first ? x : Tensor(), last ? y : Tensor());
    } else {
      schedule->step(first ? x : Tensor(), last ? y : Tensor());
    }
    const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s > 0) {  // the first step agrees on shapes
      wall += w;
      std::vector<Tensor> longest{full({1}, w, kDouble)};  // the step ends with the last rank
      dist::AllreduceOptions max;
      max.reduceOp = dist::ReduceOp::MAX;
      world->allreduce(longest, max)->wait();
      makespan += longest[0].item<double>();
      for (auto* st : mine) {
        compute += st->last_compute_seconds();
        wait += st->last_wait_seconds();
      }
    }
  }
  const double theory = static_cast<double>(ranks - 1) / static_cast<double>(mb * v + ranks - 1);
  std::printf(
      "%s rank %lld of %lld, %lld micro-batches, %lld stage(s) per rank: step %.4f s, compute "
      "%.1f%%, idle (bubble) %.1f%%, waiting in recv %.1f%%; theory (p-1)/(m v+p-1) = %.1f%%\n",
      kind.c_str(), static_cast<long long>(rank), static_cast<long long>(ranks),
      static_cast<long long>(mb), static_cast<long long>(v), wall / (steps - 1),
      100 * compute / wall, 100 * (1 - compute / wall), 100 * wait / wall, 100 * theory);
  // The bubble of the whole pipeline: the ranks' mean idle time over the step (which lasts until
  // the last rank is done), 1 - mean compute / step.
  std::vector<Tensor> busy{full({1}, compute, kDouble)};
  world->allreduce(busy)->wait();
  const double mean_compute = busy[0].item<double>() / static_cast<double>(ranks);
  if (rank == 0) {
    std::printf(
        "%s on %lld ranks x %lld stage(s), %lld micro-batches: step %.4f s, mean compute %.4f s, "
        "bubble %.1f%%; theory (p-1)/(m v+p-1) = %.1f%%\n",
        kind.c_str(), static_cast<long long>(ranks), static_cast<long long>(v),
        static_cast<long long>(mb), makespan / (steps - 1), mean_compute / (steps - 1),
        100 * (1 - mean_compute / makespan), 100 * theory);
  }
  owned.clear();
  dist::destroy_process_group();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "train" && argc >= 6) {
      const bool ddp = argc > 6 && std::strcmp(argv[6], "--ddp") == 0;
      const bool dp = ddp || (argc > 6 && std::strcmp(argv[6], "--dp") == 0);
      return train(argv[2], std::stoll(argv[3]), std::stoll(argv[4]), argv[5], dp, ddp);
    }
    if (mode == "reference" && argc == 5)
      return reference(std::stoll(argv[2]), std::stoll(argv[3]), argv[4]);
    if (mode == "mismatch") return mismatch();
    if (mode == "mismatch-interleaved") return mismatch_interleaved();
    if (mode == "bench" && argc == 4) return bench(argv[2], std::stoll(argv[3]), false);
    if (mode == "bench-sleep" && (argc == 4 || argc == 5))
      return bench(argv[2], std::stoll(argv[3]), true, argc == 5 ? std::stod(argv[4]) : 8.0);
    std::fprintf(stderr, "usage: pp_worker train|reference|mismatch|bench ...\n");
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pp_worker: %s\n", e.what());
    return 1;
  }
}
