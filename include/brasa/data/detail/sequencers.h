#pragma once
// detail::sequencers: how a data loader orders the results its workers hand back.
// NoSequencer passes them on as they come; OrderedSequencer restores the order of the requests
// (DataLoaderOptions::enforce_ordering).

#include <cstddef>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "brasa/core/error.h"

namespace brasa::data::detail::sequencers {

/// `Result` has a `size_t sequence_number` (OrderedSequencer reads it).
template <typename Result>
struct Sequencer {
  /// Produces the next result in completion order, or nullopt when none is outstanding.
  using ResultProducer = std::function<std::optional<Result>()>;
  virtual ~Sequencer() = default;
  virtual std::optional<Result> next(ResultProducer next_result) = 0;
};

template <typename Result>
struct NoSequencer final : public Sequencer<Result> {
  using typename Sequencer<Result>::ResultProducer;
  std::optional<Result> next(ResultProducer next_result) override { return next_result(); }
};

/// Returns results by increasing sequence number, keeping early arrivals in a ring of max_jobs
/// slots: at most max_jobs results may be outstanding at once (the loader's prefetch limit).
template <typename Result>
struct OrderedSequencer : public Sequencer<Result> {
  using typename Sequencer<Result>::ResultProducer;

  explicit OrderedSequencer(size_t max_jobs) : buffer_(max_jobs) {
    BRASA_CHECK(max_jobs > 0, "OrderedSequencer: max_jobs must be positive");
  }

  std::optional<Result> next(ResultProducer next_result) override {
    if (auto& waiting = buffer(next_sequence_number_)) {
      std::optional<Result> result = std::move(waiting);
      waiting.reset();
      ++next_sequence_number_;
      return result;
    }
    while (auto result = next_result()) {
      if (result->sequence_number == next_sequence_number_) {
        ++next_sequence_number_;
        return result;
      }
      auto& slot = buffer(result->sequence_number);
      BRASA_INTERNAL_ASSERT(!slot.has_value(), "OrderedSequencer: result ", result->sequence_number,
                            " arrived with ", buffer_.size(), " or more results outstanding");
      slot = std::move(result);
    }
    return std::nullopt;  // nothing outstanding: the epoch is over
  }

  std::optional<Result>& buffer(size_t sequence_number) {
    return buffer_.at(sequence_number % buffer_.size());
  }

  /// The sequence number of the result next() returns next.
  size_t next_sequence_number_ = 0;
  /// Results that arrived before their turn, at sequence_number % size().
  std::vector<std::optional<Result>> buffer_;
};

}  // namespace brasa::data::detail::sequencers
