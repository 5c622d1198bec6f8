// simulate_pipeline_schedule: the schedules' actions run on an idealised machine (free
// communication, fixed compute times) to count each rank's idle time, the bubble.

#include <algorithm>
#include <map>
#include <tuple>

#include "brasa/brasa.h"
#include "brasa/distributed/pipelining.h"

namespace brasa::distributed::pipelining {

PipelineSimulation simulate_pipeline_schedule(PipelineScheduleKind kind, int64_t num_ranks,
                                              int64_t stages_per_rank, int64_t n_microbatches,
                                              double forward_time, double backward_time,
                                              double latency) {
  BRASA_CHECK(forward_time > 0 && backward_time > 0 && latency >= 0,
              "simulate_pipeline_schedule: times must be positive, got ", forward_time, " and ",
              backward_time, ", latency ", latency);
  const int64_t p = num_ranks, v = stages_per_rank, stages = p * v;
  std::vector<std::vector<PipelineAction>> lists;
  for (int64_t r = 0; r < p; ++r)
    lists.push_back(pipeline_schedule_actions(kind, r, p, v, n_microbatches));
  using Key = std::tuple<bool, int64_t, int64_t>;
  std::map<Key, double> finished;
  std::vector<size_t> next(static_cast<size_t>(p), 0);
  std::vector<double> clock(static_cast<size_t>(p), 0), busy(static_cast<size_t>(p), 0);
  PipelineSimulation sim;
  sim.busy.resize(static_cast<size_t>(p));
  const double tf = forward_time / static_cast<double>(v);
  const double tb = backward_time / static_cast<double>(v);
  for (bool progressed = true; progressed;) {
    progressed = false;
    for (size_t r = 0; r < lists.size(); ++r) {
      for (; next[r] < lists[r].size(); ++next[r]) {
        const PipelineAction& a = lists[r][next[r]];
        double ready = 0;
        // A forward needs the previous stage's output, a backward the next stage's gradient.
        const bool needs = a.forward ? a.stage > 0 : a.stage < stages - 1;
        if (needs) {
          auto it = finished.find({a.forward, a.forward ? a.stage - 1 : a.stage + 1, a.microbatch});
          if (it == finished.end()) break;
          ready = it->second + latency;
        }
        const double start = std::max(clock[r], ready), d = a.forward ? tf : tb;
        clock[r] = start + d;
        busy[r] += d;
        sim.busy[r].emplace_back(start, clock[r]);
        finished[{a.forward, a.stage, a.microbatch}] = clock[r];
        progressed = true;
      }
    }
  }
  for (size_t r = 0; r < lists.size(); ++r) {
    BRASA_CHECK(next[r] == lists[r].size(), "simulate_pipeline_schedule: deadlock: rank ", r,
                " waits at its action ", next[r], " of ", lists[r].size());
  }
  sim.makespan = *std::max_element(clock.begin(), clock.end());
  for (size_t r = 0; r < lists.size(); ++r) {
    sim.idle.push_back(sim.makespan - busy[r]);
    sim.bubble_fraction += sim.idle.back() / sim.makespan / static_cast<double>(p);
  }
  return sim;
}

}  // namespace brasa::distributed::pipelining
