// Self times, key averages and the table on synthetic timings (no clock involved).

#include <gtest/gtest.h>

#include "brasa/profiler/key_averages.h"

namespace brasa::profiler {
namespace {

Event ev(const char* name, uint64_t tid, int64_t start_us, int64_t end_us,
         std::string shapes = "") {
  return Event{name, EventKind::Op, tid, start_us * 1000, end_us * 1000, std::move(shapes)};
}

// Thread 1: outer [0, 100] holds mid [10, 40] (which holds leaf [15, 25]) and leaf [50, 90];
// thread 2: a leaf [0, 30] overlapping outer in time but not nested in it.
std::vector<Event> nested() {
  return {ev("leaf", 1, 50, 90), ev("outer", 1, 0, 100), ev("leaf", 1, 15, 25),
          ev("mid", 1, 10, 40), ev("leaf", 2, 0, 30)};
}

TEST(ProfilerSelfTime, NestedScopesSubtractDirectChildrenOnly) {
  const std::vector<Event> events = nested();
  const std::vector<int64_t> self = self_times_ns(events);
  ASSERT_EQ(self.size(), events.size());
  EXPECT_EQ(self[0], 40'000);  // leaf [50, 90]
  EXPECT_EQ(self[1], 30'000);  // outer: 100 - 30 (mid) - 40 (leaf); leaf [15, 25] is mid's
  EXPECT_EQ(self[2], 10'000);  // leaf [15, 25]
  EXPECT_EQ(self[3], 20'000);  // mid: 30 - 10
  EXPECT_EQ(self[4], 30'000);  // thread 2's leaf is nobody's child
}

TEST(ProfilerSelfTime, EqualStartsNestTheLongerOutside) {
  // A zero-length and an equal-start child: the enclosing event is the longer one.
  const std::vector<Event> events = {ev("child", 1, 0, 10), ev("parent", 1, 0, 30),
                                     ev("empty", 1, 10, 10)};
  const std::vector<int64_t> self = self_times_ns(events);
  EXPECT_EQ(self[0], 10'000);
  EXPECT_EQ(self[1], 20'000);
  EXPECT_EQ(self[2], 0);
}

TEST(ProfilerKeyAverages, SumsPerName) {
  const std::vector<KeyAverage> rows = key_averages(nested());
  ASSERT_EQ(rows.size(), 3u);  // leaf, outer, mid in order of first appearance
  EXPECT_EQ(rows[0].name, "leaf");
  EXPECT_EQ(rows[0].count, 3);
  EXPECT_EQ(rows[0].cpu_time_total_ns, 80'000);
  EXPECT_EQ(rows[0].self_cpu_time_total_ns, 80'000);
  EXPECT_DOUBLE_EQ(rows[0].cpu_time_avg_ns(), 80'000.0 / 3);
  EXPECT_EQ(rows[1].name, "outer");
  EXPECT_EQ(rows[1].cpu_time_total_ns, 100'000);
  EXPECT_EQ(rows[1].self_cpu_time_total_ns, 30'000);
  EXPECT_EQ(rows[2].name, "mid");
  EXPECT_EQ(rows[2].self_cpu_time_total_ns, 20'000);
}

TEST(ProfilerKeyAverages, GroupsByInputShapeWhenAsked) {
  const std::vector<Event> events = {ev("add", 1, 0, 10, "[[2], [2]]"),
                                     ev("add", 1, 20, 40, "[[3], [3]]"),
                                     ev("add", 1, 50, 60, "[[2], [2]]")};
  EXPECT_EQ(key_averages(events).size(), 1u);
  const std::vector<KeyAverage> rows = key_averages(events, /*group_by_input_shape=*/true);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].input_shapes, "[[2], [2]]");
  EXPECT_EQ(rows[0].count, 2);
  EXPECT_EQ(rows[0].cpu_time_total_ns, 20'000);
  EXPECT_EQ(rows[1].input_shapes, "[[3], [3]]");
  EXPECT_EQ(rows[1].count, 1);
}

TEST(ProfilerTable, SortedBySelfTimeWithPercentagesOfTheSelfTotal) {
  const std::string table = format_table(key_averages(nested()));
  // Self total = 80 + 30 + 20 = 130us. leaf 61.54%, outer 23.08% (CPU total 76.92%), mid 15.38%.
  const size_t leaf = table.find("leaf"), outer = table.find("outer"), mid = table.find("mid");
  ASSERT_NE(leaf, std::string::npos) << table;
  EXPECT_LT(leaf, outer) << table;
  EXPECT_LT(outer, mid) << table;
  EXPECT_NE(table.find("61.54%"), std::string::npos) << table;
  EXPECT_NE(table.find("23.08%"), std::string::npos) << table;
  EXPECT_NE(table.find("76.92%"), std::string::npos) << table;
  EXPECT_NE(table.find("15.38%"), std::string::npos) << table;
  EXPECT_NE(table.find("26.667us"), std::string::npos) << table;  // leaf's average
  EXPECT_NE(table.find("Self CPU time total: 130.000us"), std::string::npos) << table;
  for (const char* h :
       {"Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"})
    EXPECT_NE(table.find(h), std::string::npos) << h;
  EXPECT_EQ(table.find("Input Shapes"), std::string::npos) << table;
}

TEST(ProfilerTable, SortByCountRowLimitAndShapesColumn) {
  std::vector<Event> events = nested();
  events.push_back(ev("once", 1, 200, 1200, "[[4, 5]]"));
  const std::string by_count =
      format_table(key_averages(events, true), SortBy::Count, /*row_limit=*/2);
  EXPECT_NE(by_count.find("leaf"), std::string::npos) << by_count;
  EXPECT_EQ(by_count.find("mid"), std::string::npos) << by_count;  // cut by the row limit
  EXPECT_NE(by_count.find("Input Shapes"), std::string::npos) << by_count;
  const std::string by_self = format_table(key_averages(events, true));
  EXPECT_LT(by_self.find("once"), by_self.find("leaf")) << by_self;
  EXPECT_NE(by_self.find("[[4, 5]]"), std::string::npos) << by_self;
  EXPECT_NE(by_self.find("1.000ms"), std::string::npos) << by_self;
}

TEST(ProfilerTable, TimesAsPyTorchPrintsThem) {
  EXPECT_EQ(format_time_ns(999), "0.999us");
  EXPECT_EQ(format_time_ns(1'500'000), "1.500ms");
  EXPECT_EQ(format_time_ns(2e9), "2.000s");
}

}  // namespace
}  // namespace brasa::profiler
