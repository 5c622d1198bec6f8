#pragma once
// Iterator<Batch>: the input iterator of a data loader's epoch; end() is a sentinel.

#include <cstddef>
#include <functional>
#include <iterator>
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
  /// runs no dataset code and a worker's exception comes from the dereference.
  explicit Iterator(std::function<std::optional<Batch>()> next)
      : next_(std::move(next)), started_(false) {}

  Iterator& operator++() {
    start();
    advance();
    return *this;
  }
  Batch& operator*() {
    start();
    BRASA_CHECK(batch_.has_value(), "DataLoader: dereferenced an exhausted iterator");
    return *batch_;
  }
  Batch* operator->() { return &**this; }
  /// Iterators compare equal when both are exhausted (or both are the same live iterator).
  bool operator==(const Iterator& other) const {
    start();
    other.start();
    return batch_.has_value() == other.batch_.has_value() && (!batch_ || this == &other);
  }
  bool operator!=(const Iterator& other) const { return !(*this == other); }

 private:
  // Fetches the first batch once; a throwing fetch is retried by the next use, as in libtorch.
  void start() const {
    if (started_) return;
    advance();
    started_ = true;
  }
  void advance() const {
    BRASA_CHECK(next_ != nullptr, "DataLoader: incremented an exhausted iterator");
    batch_.reset();
    batch_ = next_();
    if (!batch_) {
      next_ = nullptr;
    }
  }

  // Mutable: comparing with end() may have to fetch the first batch.
  mutable std::function<std::optional<Batch>()> next_;
  mutable std::optional<Batch> batch_;
  mutable bool started_ = true;
};

}  // namespace brasa::data
