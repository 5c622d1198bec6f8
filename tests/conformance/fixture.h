#pragma once
// Reader of the fixture files written by fixture_format.py (layout in README.md): each case names
// an op, carries its inputs (tensors rebuilt with the exact sizes, strides and storage offset
// PyTorch had) and PyTorch's result or the fact that PyTorch raised.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "brasa/brasa.h"

namespace brasa::conformance {

/// A mistake of the harness itself (malformed fixture, wrong argument kind in an op map); never
/// satisfies an expected-error case.
class HarnessError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

enum class Tag : uint8_t { None, Bool, Int, Float, Str, Dtype, Tensor, List, Ellipsis, Slice };

struct Value {
  Tag tag = Tag::None;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  ScalarType dtype = ScalarType::Undefined;
  Tensor tensor;
  std::vector<Value> list;  // List items, or Slice's start/stop/step

  Value() = default;
  Value(const Tensor& t) : tag(Tag::Tensor), tensor(t) {}  // NOLINT: op maps return tensors
  static Value of_bool(bool v);
  static Value of_dtype(ScalarType t);
  static Value of_list(std::vector<Value> items);
  static Value of_tensors(const std::vector<Tensor>& ts);
  /// "Tensor[Float [2, 3]]", "int 3", ... for reports.
  std::string describe() const;
};

constexpr uint32_t kCheckStrides = 1;
constexpr uint32_t kSkipValues = 2;

/// One differentiable input of a gradient case: positional index or keyword name, and PyTorch's
/// gradient for it (Tag::None when the output does not depend on it).
struct GradInput {
  bool is_kwarg = false;
  size_t index = 0;
  std::string name;
  Value expected;
};

/// PyTorch's gradients of a case (Note [Gradient conformance] in common.py).
struct GradCase {
  double rtol = 0, atol = 0;
  std::vector<Tensor> grad_outputs;
  std::vector<GradInput> inputs;
};

struct Case {
  std::string op, label;
  uint32_t flags = 0;
  double rtol = 0, atol = 0;
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  bool expect_error = false;
  std::string error;  // PyTorch's message when expect_error
  Value expected;
  std::optional<GradCase> grad;
};

/// Reads every case of a fixture file; throws HarnessError when it is missing or malformed.
std::vector<Case> read_fixture(const std::string& path);

}  // namespace brasa::conformance
