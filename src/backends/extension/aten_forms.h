#pragma once
// The table of aten overloads brasa maps onto its ops (brasa/backend/aten.h). Each family's file
// (aten_pointwise.cpp, aten_core.cpp) adds its forms with add_aten_forms at load time.

#include <string>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::backend::detail {

/// Where an aten argument comes from: a brasa argument, a constant, or a brasa 0-d tensor's value.
struct AtenArg {
  enum Kind : uint8_t { Arg, None, False, ValueOf };
  Kind kind;
  int index;
};
inline AtenArg arg(int i) { return {AtenArg::Arg, i}; }
inline AtenArg none() { return {AtenArg::None, -1}; }
inline AtenArg false_() { return {AtenArg::False, -1}; }
/// The Scalar held by brasa argument i (a wrapped Python-style number).
inline AtenArg value_of(int i) { return {AtenArg::ValueOf, i}; }

/// Which brasa calls an overload serves, in terms of brasa's `out` argument (undefined:
/// functional; self: in-place; other: out=) and of a Python-number operand.
struct Serves {
  enum Out : uint8_t { Any, Functional, InPlace, OutArg };
  Out out = Any;
  int out_index = -1;
  int number_index = -1;  ///< >= 0: this argument's wrapped-number-ness must be `number`
  bool number = false;
  bool (*also)(const Stack&) = nullptr;  ///< a further condition, or null
  bool covers(const Stack& s) const;
};

struct AtenForm {
  std::string name;       ///< "add.Tensor"
  std::string op;         ///< brasa op, "add"
  std::string signature;  ///< "Tensor(Tensor, Tensor, Scalar)"
  std::vector<AtenArg> args;
  Serves serves;
  int result_arg = -1;  ///< >= 0: the call returns this brasa argument (in-place, out=)
};

bool add_aten_forms(std::vector<AtenForm> forms);

// Serves-builders for brasa's (…, out) convention.
inline Serves functional(int out, int number_index = -1, bool number = false) {
  return {Serves::Functional, out, number_index, number, nullptr};
}
inline Serves in_place(int out, int number_index = -1, bool number = false) {
  return {Serves::InPlace, out, number_index, number, nullptr};
}
inline Serves out_arg(int out, int number_index = -1, bool number = false) {
  return {Serves::OutArg, out, number_index, number, nullptr};
}
inline Serves always(bool (*also)(const Stack&) = nullptr) {
  return {Serves::Any, -1, -1, false, also};
}

}  // namespace brasa::backend::detail
