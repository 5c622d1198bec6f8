#pragma once
// What the boxed layers need to know of an op's schema string ("add(Tensor self, Tensor other,
// Scalar alpha, Tensor? out) -> Tensor"): argument names and types, which arguments the op writes
// (`Tensor(a!)`, or a `Tensor? out` that is given), and whether a result aliases an input
// (`-> Tensor(a)`, a view op).

#include <string>
#include <vector>

#include "brasa/core/macros.h"

namespace brasa {

struct SchemaArgument {
  std::string name;
  std::string type;        ///< as written, e.g. "Tensor(a!)", "int[]", "Scalar?"
  bool is_tensor = false;  ///< Tensor, Tensor? or Tensor[]
  bool is_list = false;    ///< Tensor[]
  bool written = false;    ///< `(a!)`, or the `out` argument of an out= form
};

struct BRASA_API SchemaInfo {
  std::string name;
  std::vector<SchemaArgument> arguments;
  std::vector<std::string> returns;  ///< types as written
  /// True when a result is declared as an alias of an input without being written (a view).
  bool returns_view = false;
  /// True when a result is declared as the written input itself (`-> Tensor(a!)`).
  bool returns_written = false;

  /// Parses a schema string; throws InternalError when it is malformed.
  static SchemaInfo parse(const std::string& schema);
  /// Index of the argument called `name`, or -1.
  int index_of(const std::string& name) const;
};

}  // namespace brasa
