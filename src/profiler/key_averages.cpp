#include "brasa/profiler/key_averages.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>

namespace brasa::profiler {

std::vector<int64_t> self_times_ns(const std::vector<Event>& events) {
  std::vector<int64_t> self(events.size());
  for (size_t i = 0; i < events.size(); ++i) self[i] = events[i].duration_ns();
  // Per thread, in order of start (the enclosing event first when two start together), a stack of
  // the events still open holds each event's parent on top.
  std::vector<size_t> order(events.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Event& x = events[a];
    const Event& y = events[b];
    if (x.thread_id != y.thread_id) return x.thread_id < y.thread_id;
    if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
    if (x.end_ns != y.end_ns) return x.end_ns > y.end_ns;
    return a < b;
  });
  std::vector<size_t> open;
  for (size_t k = 0; k < order.size(); ++k) {
    const Event& e = events[order[k]];
    if (k > 0 && events[order[k - 1]].thread_id != e.thread_id) open.clear();
    while (!open.empty()) {
      const Event& top = events[open.back()];
      if (top.start_ns <= e.start_ns && e.end_ns <= top.end_ns) break;
      open.pop_back();
    }
    if (!open.empty()) self[open.back()] -= e.duration_ns();
    open.push_back(order[k]);
  }
  return self;
}

std::vector<KeyAverage> key_averages(const std::vector<Event>& events, bool group_by_input_shape) {
  const std::vector<int64_t> self = self_times_ns(events);
  std::vector<KeyAverage> rows;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    std::pair<std::string, std::string> key{e.name,
                                            group_by_input_shape ? e.input_shapes : std::string()};
    auto [it, fresh] = index.try_emplace(key, rows.size());
    if (fresh) rows.push_back(KeyAverage{key.first, key.second});
    KeyAverage& row = rows[it->second];
    ++row.count;
    row.cpu_time_total_ns += e.duration_ns();
    row.self_cpu_time_total_ns += self[i];
  }
  return rows;
}

std::string format_time_ns(double ns) {
  const double us = ns / 1e3;
  char buf[64];
  if (us >= 1e6)
    std::snprintf(buf, sizeof buf, "%.3fs", us / 1e6);
  else if (us >= 1e3)
    std::snprintf(buf, sizeof buf, "%.3fms", us / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3fus", us);
  return buf;
}

namespace {

std::string percent(double part, double whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", whole > 0 ? 100.0 * part / whole : 0.0);
  return buf;
}

std::string pad(const std::string& s, size_t width, bool right) {
  std::string text = s.size() > width ? s.substr(0, width - 3) + "..." : s;
  std::string fill(width - text.size(), ' ');
  return right ? fill + text : text + fill;
}

}  // namespace

std::string format_table(std::vector<KeyAverage> rows, SortBy sort_by, int row_limit) {
  auto key = [sort_by](const KeyAverage& r) {
    switch (sort_by) {
      case SortBy::CpuTimeTotal: return r.cpu_time_total_ns;
      case SortBy::Count: return r.count;
      default: return r.self_cpu_time_total_ns;
    }
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const KeyAverage& a, const KeyAverage& b) { return key(a) > key(b); });
  double self_total = 0;
  bool shapes = false;
  for (const KeyAverage& r : rows) {
    self_total += double(r.self_cpu_time_total_ns);
    shapes = shapes || !r.input_shapes.empty();
  }
  if (row_limit >= 0 && rows.size() > size_t(row_limit)) rows.resize(size_t(row_limit));

  size_t name_width = 4;
  size_t shape_width = 12;
  for (const KeyAverage& r : rows) {
    name_width = std::max(name_width, r.name.size());
    shape_width = std::max(shape_width, r.input_shapes.size());
  }
  name_width = std::min<size_t>(name_width, 60);
  shape_width = std::min<size_t>(shape_width, 80);
  constexpr size_t kNumber = 12;
  const char* headers[] = {"Self CPU %", "Self CPU",     "CPU total %",
                           "CPU total",  "CPU time avg", "# of Calls"};

  std::string rule = std::string(name_width, '-');
  for (size_t i = 0; i < 6; ++i) rule += "  " + std::string(kNumber, '-');
  if (shapes) rule += "  " + std::string(shape_width, '-');
  rule += "  \n";

  std::string out = rule + pad("Name", name_width, true);
  for (const char* h : headers) out += "  " + pad(h, kNumber, true);
  if (shapes) out += "  " + pad("Input Shapes", shape_width, true);
  out += "  \n" + rule;
  for (const KeyAverage& r : rows) {
    out += pad(r.name, name_width, true);
    const std::string cells[] = {percent(double(r.self_cpu_time_total_ns), self_total),
                                 format_time_ns(double(r.self_cpu_time_total_ns)),
                                 percent(double(r.cpu_time_total_ns), self_total),
                                 format_time_ns(double(r.cpu_time_total_ns)),
                                 format_time_ns(r.cpu_time_avg_ns()),
                                 std::to_string(r.count)};
    for (const std::string& c : cells) out += "  " + pad(c, kNumber, true);
    if (shapes) out += "  " + pad(r.input_shapes, shape_width, true);
    out += "  \n";
  }
  out += rule + "Self CPU time total: " + format_time_ns(self_total) + "\n";
  return out;
}

}  // namespace brasa::profiler
