#pragma once
// BRASA_ARG(T, name): an option field with libtorch's TORCH_ARG accessors: `opts.name(v)` sets it
// and returns the options (for chaining), `opts.name()` reads it. Follow with `= default_value;`.
//
// Note [Option setters are templates]
// The setter is a member template whose argument type defaults to T: a braced list
// (`.padding({1, 2})`) still builds a T, any other argument is assigned to the field as it comes.
// A non-template setter's body is compiled in every program that includes the options' header,
// instantiating T's assignment operators (std::deque, std::vector, std::function, ...) for each
// field; as a template it is compiled only in a program that calls it.

#include <utility>

#define BRASA_ARG(T, name)                                        \
 public:                                                          \
  template <typename BrasaArgT_ = T>                              \
  inline auto name(BrasaArgT_&& new_##name)->decltype(*this) {    \
    this->name##_ = std::forward<BrasaArgT_>(new_##name);         \
    return *this;                                                 \
  }                                                               \
  inline const T& name() const noexcept { return this->name##_; } \
  inline T& name() noexcept { return this->name##_; }             \
                                                                  \
 private:                                                         \
  T name##_
