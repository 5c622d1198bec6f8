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
  /// Fetches the first batch now; `next` returns nullopt when the epoch is over.
  explicit Iterator(std::function<std::optional<Batch>()> next) : next_(std::move(next)) {
    advance();
  }

  Iterator& operator++() {
    advance();
    return *this;
  }
  Batch& operator*() {
    BRASA_CHECK(batch_.has_value(), "DataLoader: dereferenced an exhausted iterator");
    return *batch_;
  }
  Batch* operator->() { return &**this; }
  /// Iterators compare equal when both are exhausted (or both are the same live iterator).
  bool operator==(const Iterator& other) const {
    return batch_.has_value() == other.batch_.has_value() && (!batch_ || this == &other);
  }
  bool operator!=(const Iterator& other) const { return !(*this == other); }

 private:
  void advance() {
    BRASA_CHECK(next_ != nullptr, "DataLoader: incremented an exhausted iterator");
    batch_.reset();
    batch_ = next_();
    if (!batch_) {
      next_ = nullptr;
    }
  }

  std::function<std::optional<Batch>()> next_;
  std::optional<Batch> batch_;
};

}  // namespace brasa::data
