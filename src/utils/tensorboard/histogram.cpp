#include <algorithm>
#include <cmath>
#include <limits>

#include "brasa/core/error.h"
#include "utils/tensorboard/summaries.h"

namespace brasa::tensorboard::detail {

const std::vector<double>& default_bucket_edges() {
  static const std::vector<double> edges = [] {
    std::vector<double> positive;
    for (double v = 1e-12; v < 1e20; v *= 1.1) positive.push_back(v);
    std::vector<double> all;
    all.reserve(2 * positive.size() + 1);
    for (auto it = positive.rbegin(); it != positive.rend(); ++it) all.push_back(-*it);
    all.push_back(0.0);
    all.insert(all.end(), positive.begin(), positive.end());
    return all;
  }();
  return edges;
}

Histogram make_histogram(const std::string& tag, const std::vector<double>& v) {
  const std::vector<double>& edges = default_bucket_edges();
  // counts[i]: values in [edges[i-1], edges[i]) (TensorFlow's and numpy's convention: a value on
  // an edge goes up); counts[edges.size()]: the last edge and above.
  std::vector<double> counts(edges.size() + 1, 0.0);
  Histogram h;
  h.min = INFINITY;
  h.max = -INFINITY;
  for (double x : v) {
    if (!std::isfinite(x)) continue;
    h.min = std::min(h.min, x);
    h.max = std::max(h.max, x);
    h.num += 1;
    h.sum += x;
    h.sum_squares += x * x;
    counts[static_cast<size_t>(std::upper_bound(edges.begin(), edges.end(), x) - edges.begin())] +=
        1;
  }
  BRASA_CHECK(h.num > 0, "tensorboard::SummaryWriter::add_histogram: '", tag, "' has no finite ",
              "value (", v.size(), " elements)");
  size_t first = 0, last = counts.size() - 1;
  while (counts[first] == 0) ++first;
  while (counts[last] == 0) --last;
  // An empty bucket before the first non-empty one, so that its lower edge is recorded.
  if (first > 0) --first;
  for (size_t i = first; i <= last; ++i) {
    h.limits.push_back(i < edges.size() ? edges[i] : std::numeric_limits<double>::max());
    h.counts.push_back(counts[i]);
  }
  return h;
}

}  // namespace brasa::tensorboard::detail
