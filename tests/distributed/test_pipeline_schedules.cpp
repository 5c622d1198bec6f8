// The pipeline schedules' orders, in one process (Note [Pipeline schedules]): every rank runs each
// of its stages' forwards and backwards exactly once, a forward before its backward; the orders
// never deadlock under blocking receives (a sweep of ranks x stages per rank x micro-batches x
// backward/forward cost ratios); and the simulated bubble (idle time over the step, with free
// communication) is the theoretical (p - 1) / (v m + p - 1) for GPipe, 1F1B (v = 1) and
// interleaved 1F1B. Figures for 4 ranks x 8 micro-batches are printed (docs/benchmarks.md).

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <tuple>

#include "brasa/brasa.h"
#include "brasa/distributed/hash_store.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/pipelining.h"

namespace {
using namespace brasa;
namespace pp = brasa::distributed::pipelining;
using Kind = pp::PipelineScheduleKind;

double theory(int64_t p, int64_t v, int64_t m) {
  return static_cast<double>(p - 1) / static_cast<double>(v * m + p - 1);
}

TEST(PipelineSchedules, EveryRankRunsEachOfItsOperationsOnceForwardBeforeBackward) {
  for (Kind kind : {Kind::GPipe, Kind::OneFOneB, Kind::Interleaved1F1B}) {
    for (int64_t p : {1, 2, 3, 4}) {
      for (int64_t v : {1, 2, 3}) {
        if (kind != Kind::Interleaved1F1B && v > 1) continue;
        for (int64_t m = p; m <= 4 * p; m += p) {
          for (int64_t r = 0; r < p; ++r) {
            const auto actions = pp::pipeline_schedule_actions(kind, r, p, v, m);
            ASSERT_EQ(static_cast<int64_t>(actions.size()), 2 * v * m);
            std::set<std::tuple<bool, int64_t, int64_t>> seen;
            for (const auto& a : actions) {
              EXPECT_EQ(a.stage % p, r);
              EXPECT_TRUE(a.forward || seen.count({true, a.stage, a.microbatch}))
                  << "backward before forward";
              EXPECT_TRUE(seen.insert({a.forward, a.stage, a.microbatch}).second) << "repeated";
            }
          }
        }
      }
    }
  }
}

TEST(PipelineSchedules, OrdersNeverDeadlockAndTheBubbleIsTheTheoreticalOne) {
  for (int64_t p = 1; p <= 8; ++p) {
    for (int64_t v = 1; v <= 4; ++v) {
      for (int64_t m = p; m <= 32; m += p) {
        for (double backward : {1.0, 2.0, 3.0}) {
          const auto sim =
              pp::simulate_pipeline_schedule(Kind::Interleaved1F1B, p, v, m, 1.0, backward);
          EXPECT_NEAR(sim.bubble_fraction, theory(p, v, m), 1e-12)
              << "p " << p << " v " << v << " m " << m << " backward " << backward;
          if (v == 1) {
            for (Kind kind : {Kind::GPipe, Kind::OneFOneB}) {
              EXPECT_NEAR(
                  pp::simulate_pipeline_schedule(kind, p, 1, m, 1.0, backward).bubble_fraction,
                  theory(p, 1, m), 1e-12);
            }
          }
        }
      }
    }
  }
}

TEST(PipelineSchedules, BubbleAt4RanksAnd8MicroBatches) {
  struct Case {
    const char* name;
    Kind kind;
    int64_t v;
  };
  for (const Case& c : {Case{"GPipe", Kind::GPipe, 1}, Case{"1F1B", Kind::OneFOneB, 1},
                        Case{"interleaved 1F1B, v = 2", Kind::Interleaved1F1B, 2},
                        Case{"interleaved 1F1B, v = 4", Kind::Interleaved1F1B, 4}}) {
    const auto sim = pp::simulate_pipeline_schedule(c.kind, 4, c.v, 8, 1.0, 2.0);
    std::printf(
        "%-24s p = 4, m = 8: step %.3f (a rank's share of a forward = 1, of a backward = 2), idle "
        "per rank %.3f, bubble %.4f; (p-1)/(m v+p-1) = %.4f\n",
        c.name, sim.makespan, sim.idle[0], sim.bubble_fraction, theory(4, c.v, 8));
    for (double idle : sim.idle) EXPECT_NEAR(idle, sim.idle[0], 1e-12);
    EXPECT_NEAR(sim.bubble_fraction, theory(4, c.v, 8), 1e-12);
  }
}

// With a latency per message, GPipe's step grows by the 2 (p - 1) hops of its critical path (fill
// and drain); the interleaved schedule's has more hops (v p - 1 each way), so a slow link eats
// part of its gain (docs/benchmarks.md compares real runs with this).
TEST(PipelineSchedules, LatencyLengthensTheCriticalPath) {
  const double latency = 0.25;
  for (int64_t p : {2, 4}) {
    for (int64_t m : {4, 8}) {
      const auto sim = pp::simulate_pipeline_schedule(Kind::GPipe, p, 1, m, 1.0, 2.0, latency);
      EXPECT_NEAR(sim.makespan, static_cast<double>(m + p - 1) * 3.0 + 2.0 * (p - 1) * latency,
                  1e-12);
    }
  }
  const auto flat = pp::simulate_pipeline_schedule(Kind::Interleaved1F1B, 4, 2, 8, 1.0, 2.0);
  const auto slow =
      pp::simulate_pipeline_schedule(Kind::Interleaved1F1B, 4, 2, 8, 1.0, 2.0, latency);
  EXPECT_GT(slow.bubble_fraction, flat.bubble_fraction);
  std::printf("interleaved 1F1B p = 4, v = 2, m = 8: bubble %.4f without latency, %.4f with %.2f\n",
              flat.bubble_fraction, slow.bubble_fraction, latency);
}

TEST(PipelineSchedules, CombinationsTheSchedulesDoNotTakeAreValueErrors) {
  EXPECT_THROW(pp::pipeline_schedule_actions(Kind::Interleaved1F1B, 0, 4, 2, 6), ValueError);
  EXPECT_THROW(pp::pipeline_schedule_actions(Kind::GPipe, 0, 2, 2, 4), ValueError);
  EXPECT_THROW(pp::pipeline_schedule_actions(Kind::OneFOneB, 2, 2, 1, 4), ValueError);
  EXPECT_THROW(pp::simulate_pipeline_schedule(Kind::GPipe, 2, 1, 4, 0.0, 1.0), ValueError);
  EXPECT_THROW(pp::simulate_pipeline_schedule(Kind::GPipe, 2, 1, 4, 1.0, 1.0, -1.0), ValueError);
}

// Stage sets the schedules refuse, on a one-rank group: every stage of a pipeline would sit on it.
TEST(PipelineSchedules, SchedulesRefuseStagesTheyCannotRun) {
  namespace dist = brasa::distributed;
  dist::InitOptions o;
  o.rank = 0;
  o.world_size = 1;
  o.store = make_intrusive<dist::HashStore>();
  dist::init_process_group("gloo", o);
  auto model = nn::Sequential(nn::Linear(2, 2), nn::Linear(2, 2));
  pp::PipelineStage s0(pp::pipeline_split(model, 0, 2), 0, 2),
      s1(pp::pipeline_split(model, 1, 2), 1, 2);
  auto mse = [](const Tensor& a, const Tensor& b) { return nn::functional::mse_loss(a, b); };
  EXPECT_THROW(pp::ScheduleGPipe(s0, 2, mse), ValueError);  // one of 2 stages on the rank
  EXPECT_THROW(pp::ScheduleInterleaved1F1B({&s0}, 2, mse), ValueError);       // the rank holds 2
  EXPECT_THROW(pp::ScheduleInterleaved1F1B({&s0, &s1}, 2, mse), ValueError);  // one rank
  EXPECT_THROW(pp::PipelineStage(pp::pipeline_split(model, 0, 2), 2, 2), ValueError);
  dist::destroy_process_group();
}

}  // namespace
