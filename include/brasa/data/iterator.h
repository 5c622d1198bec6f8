#pragma once
// Iterator<Batch>: the input iterator of a data loader's epoch; end() is a sentinel.

#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

#include "brasa/core/error.h"

namespace brasa::data {

template <typename Batch>
class Iterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Batch;
  using difference_type = std::ptrdiff_t;
  using pointer = Batch*;
  using reference = Batch&;

  /// The end sentinel.
  Iterator() = default;
  /// `next` returns nullopt when the epoch is over. Like libtorch's, the iterator fetches its
  /// first batch when it is first used (dereferenced, incremented or compared), so begin() itself
  /// runs no dataset code and a worker's exception comes from the dereference. Copies share one
  /// position, as libtorch's do (incrementing one advances all).
  explicit Iterator(std::function<std::optional<Batch>()> next)
      : state_(std::make_shared<State>(State{std::move(next), std::nullopt, false})) {}

  /// Error (libtorch's words) on the end sentinel and on an iterator already past the end.
  Iterator& operator++() {
    BRASA_CHECK(state_ != nullptr,
                "DataLoader: Incrementing the DataLoader's past-the-end iterator is not allowed");
    start();
    BRASA_CHECK(state_->next != nullptr,
                "DataLoader: Attempted to increment iterator past the end");
    advance();
    return *this;
  }
  Batch& operator*() {
    BRASA_CHECK(state_ != nullptr,
                "DataLoader: Dereferencing the DataLoader's past-the-end iterator is not allowed");
    start();
    BRASA_CHECK(state_->batch.has_value(),
                "DataLoader: Attempted to dereference iterator that was past the end");
    return *state_->batch;
  }
  Batch* operator->() { return &**this; }
  /// Iterators compare equal when both are exhausted (or both share one live position).
  bool operator==(const Iterator& other) const {
    const bool done = exhausted(), other_done = other.exhausted();
    return done == other_done && (done || state_ == other.state_);
  }
  bool operator!=(const Iterator& other) const { return !(*this == other); }

 private:
  struct State {
    std::function<std::optional<Batch>()> next;  // null once the epoch is over
    std::optional<Batch> batch;
    bool started;
  };

  bool exhausted() const {
    if (state_ == nullptr) return true;
    start();
    return !state_->batch.has_value();
  }
  // Fetches the first batch once; a throwing fetch is retried by the next use, as in libtorch.
  void start() const {
    if (state_->started) return;
    advance();
    state_->started = true;
  }
  void advance() const {
    BRASA_INTERNAL_ASSERT(state_->next != nullptr, "DataLoader: advancing an exhausted iterator");
    state_->batch.reset();
    state_->batch = state_->next();
    if (!state_->batch) {
      state_->next = nullptr;
    }
  }

  std::shared_ptr<State> state_;  // null: the end sentinel
};

}  // namespace brasa::data
