#pragma once
// c10::irange(end) and c10::irange(begin, end): integer ranges for range-based for loops.

#include <cstdint>
#include <iterator>
#include <type_traits>

namespace c10 {
namespace detail {
template <typename I>
class IntRange {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = I;
    using difference_type = std::ptrdiff_t;
    using pointer = const I*;
    using reference = I;
    constexpr explicit iterator(I v) : v_(v) {}
    constexpr I operator*() const { return v_; }
    constexpr iterator& operator++() {
      ++v_;
      return *this;
    }
    constexpr iterator operator++(int) { return iterator(v_++); }
    constexpr bool operator==(const iterator& o) const { return v_ == o.v_; }
    constexpr bool operator!=(const iterator& o) const { return v_ != o.v_; }

   private:
    I v_;
  };
  constexpr IntRange(I begin, I end) : begin_(begin), end_(end < begin ? begin : end) {}
  constexpr iterator begin() const { return iterator(begin_); }
  constexpr iterator end() const { return iterator(end_); }

 private:
  I begin_, end_;
};
}  // namespace detail

/// [begin, end); empty when end <= begin. Values have the type of `end`, as in libtorch.
template <typename I1, typename I2,
          typename = std::enable_if_t<std::is_integral_v<I1> && std::is_integral_v<I2>>>
constexpr detail::IntRange<I2> irange(I1 begin, I2 end) {
  return detail::IntRange<I2>(static_cast<I2>(begin), end);
}
/// [0, end); empty when end <= 0.
template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
constexpr detail::IntRange<I> irange(I end) {
  return detail::IntRange<I>(I{}, end);
}
}  // namespace c10
