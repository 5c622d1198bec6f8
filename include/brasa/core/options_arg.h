#pragma once
// BRASA_ARG(T, name): an option field with libtorch's TORCH_ARG accessors: `opts.name(v)` sets it
// and returns the options (for chaining), `opts.name()` reads it. Follow with `= default_value;`.

#include <utility>

#define BRASA_ARG(T, name)                                        \
 public:                                                          \
  inline auto name(const T& new_##name)->decltype(*this) {        \
    this->name##_ = new_##name;                                   \
    return *this;                                                 \
  }                                                               \
  inline auto name(T&& new_##name)->decltype(*this) {             \
    this->name##_ = std::move(new_##name);                        \
    return *this;                                                 \
  }                                                               \
  inline const T& name() const noexcept { return this->name##_; } \
  inline T& name() noexcept { return this->name##_; }             \
                                                                  \
 private:                                                         \
  T name##_
