#pragma once
// Serialized tensorboard.Summary messages, one per kind of data SummaryWriter logs.

#include <map>
#include <string>
#include <vector>

#include "brasa/core/macros.h"
#include "brasa/utils/tensorboard.h"

namespace brasa::tensorboard::detail {

/// HistogramProto's content: bucket i counts the values in [limits[i-1], limits[i]) (bucket 0:
/// everything below limits[0]).
struct Histogram {
  double min = 0, max = 0, num = 0, sum = 0, sum_squares = 0;
  std::vector<double> limits, counts;
};

/// TensorBoard's default bucket edges: -1e20 .. -1e-12, 0, 1e-12 .. 1e20, growing by 1.1.
BRASA_API const std::vector<double>& default_bucket_edges();
/// The histogram of the finite values of `v` in the default buckets, keeping the buckets from
/// the first non-empty one to the last, plus an empty one before them (it states the lower edge).
/// ValueError naming `tag` when no value is finite.
BRASA_API Histogram make_histogram(const std::string& tag, const std::vector<double>& v);

std::string scalar_summary(const std::string& tag, double value);
std::string histogram_summary(const std::string& tag, const Histogram& h);
std::string text_summary(const std::string& tag, const std::string& text);
/// The hparams plugin's experiment, session-start and session-end summaries, in that order.
std::vector<std::string> hparams_summaries(const std::map<std::string, HParamValue>& hparams,
                                           const std::vector<std::string>& metric_tags);

}  // namespace brasa::tensorboard::detail
