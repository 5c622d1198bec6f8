#pragma once
// Self times and per-name statistics of profiler events, as PyTorch's
// prof.key_averages().table(sort_by="self_cpu_time_total") shows them.

#include <cstdint>
#include <string>
#include <vector>

#include "brasa/dispatch/record_function.h"

namespace brasa::profiler {

/// Each event's self time: its duration minus the durations of the events directly nested in it
/// on the same thread (an event nests in another when its interval lies within the other's).
/// Result[i] belongs to events[i].
BRASA_API std::vector<int64_t> self_times_ns(const std::vector<Event>& events);

/// The statistics of one name (and input shapes, when grouped by them).
struct KeyAverage {
  std::string name;
  std::string input_shapes;  // "" unless grouped by input shape
  int64_t count = 0;
  int64_t cpu_time_total_ns = 0;       // sum of durations
  int64_t self_cpu_time_total_ns = 0;  // sum of self times
  double cpu_time_avg_ns() const { return count ? double(cpu_time_total_ns) / count : 0.0; }
};

/// One KeyAverage per distinct name (per name and input shapes when `group_by_input_shape`), in
/// order of first appearance.
BRASA_API std::vector<KeyAverage> key_averages(const std::vector<Event>& events,
                                               bool group_by_input_shape = false);

enum class SortBy : uint8_t { SelfCpuTimeTotal, CpuTimeTotal, Count };

/// The table: Name, Self CPU %, Self CPU, CPU total %, CPU total, CPU time avg, # of Calls (and
/// Input Shapes when any row has them), sorted descending by `sort_by`, at most `row_limit` rows
/// (all when negative), then "Self CPU time total: ...". Percentages are of the sum of self times.
BRASA_API std::string format_table(std::vector<KeyAverage> rows,
                                   SortBy sort_by = SortBy::SelfCpuTimeTotal, int row_limit = 100);

/// A duration as PyTorch's tables print it: "12.345us", "1.234ms", "2.000s".
BRASA_API std::string format_time_ns(double ns);

}  // namespace brasa::profiler
