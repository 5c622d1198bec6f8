#pragma once
// The aten overloads brasa maps onto its ops (brasa/backend/aten.h), derived from the op
// declarations by aten_rules.cpp (Note [aten forms]) and looked up by aten_dispatch.cpp.

#include <string>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::backend::detail {

/// Where an aten argument comes from: a brasa argument, a constant, a brasa 0-d tensor's value, or
/// the one element of a brasa int list (aten's `int dim` for brasa's `int[] dim`).
struct AtenArg {
  enum Kind : uint8_t { Arg, Constant, ValueOf, Element };
  Kind kind;
  int index = -1;  ///< the brasa argument (Arg, ValueOf)
  Value constant;  ///< Constant
  std::string type;
};

/// A condition on a brasa call that an overload needs to serve it.
struct Condition {
  enum Kind : uint8_t {
    IsNone,     ///< an undefined tensor or a none value
    IsTensor,   ///< a defined tensor that is not a wrapped Python number
    IsNumber,   ///< a wrapped Python number (aten's Scalar overloads)
    NotNumber,  ///< not a wrapped number (implied by every aten Tensor argument)
    IsOne,      ///< a Scalar equal to 1
    IsEmpty,    ///< an empty int list
    IsFalse,    ///< false
    IsSelf,     ///< brasa's `out` is `self` (the in-place form)
    IsGiven,    ///< brasa's `out` is defined and not `self` (the out= form)
    IsSingle,   ///< an int list of one element (implied by an Element argument)
  };
  Kind kind;
  int index;
  int self_index = 0;  ///< IsSelf / IsGiven: the argument `out` is compared with
  bool holds(const Stack& s) const;
  std::string str(const SchemaInfo& info) const;  ///< "out=self", "" for NotNumber
};

struct AtenForm {
  std::string name;       ///< "add.Tensor"
  std::string op;         ///< brasa op, "add"
  std::string signature;  ///< "Tensor(Tensor, Tensor, Scalar)"
  std::vector<AtenArg> args;
  std::vector<Condition> when;  ///< all hold for the calls the overload serves
  int result_arg = -1;          ///< >= 0: the call returns this brasa argument (in-place, out=)
  size_t order = 0;             ///< place among the op's forms: earlier ones are more specific
  bool covers(const Stack& s) const;
  std::string conditions(const SchemaInfo& info) const;  ///< "out=None alpha=1"
};

/// The overloads of one op, most specific first; none for an op whose statement is `none: ...` or
/// whose name is not aten's (`test::x`). Throws InternalError for a malformed BRASA_ATEN statement.
std::vector<AtenForm> derive_aten_forms(const OperatorHandle& op);

}  // namespace brasa::backend::detail
