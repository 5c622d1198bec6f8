#pragma once
// Op maps: each ops_<family>.cpp registers name -> lambda(Args) -> Value, one line per op, with
//   static const OpTable table("binary", {{"add", [](const Args& a) -> Value { ... }}, ...});
// The names are the `op` strings of the family's Python case table (cases_<family>.py).

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "fixture.h"

namespace brasa::conformance {

/// Typed access to a case's positional and keyword arguments; a wrong kind throws HarnessError.
class Args {
 public:
  explicit Args(const Case& c) : c_(c) {}
  size_t size() const { return c_.args.size(); }
  const Value& at(size_t i) const;
  bool is_tensor(size_t i) const { return at(i).tag == Tag::Tensor; }
  Tensor tensor(size_t i) const;
  /// Python bool/int/float -> Scalar of the same kind.
  Scalar scalar(size_t i) const;
  int64_t integer(size_t i) const;
  double real(size_t i) const;
  ScalarType dtype(size_t i) const;
  std::vector<int64_t> ints(size_t i) const;

  const Value* kwarg(std::string_view name) const;
  bool has(std::string_view name) const { return kwarg(name) != nullptr; }
  /// An absent keyword gives an undefined Tensor (libtorch's "no tensor").
  Tensor kw_tensor(std::string_view name) const;
  std::optional<Scalar> kw_scalar(std::string_view name) const;
  std::optional<int64_t> kw_int(std::string_view name) const;
  std::optional<double> kw_real(std::string_view name) const;
  std::optional<bool> kw_bool(std::string_view name) const;
  std::optional<std::string> kw_str(std::string_view name) const;
  std::optional<ScalarType> kw_dtype(std::string_view name) const;
  std::optional<std::vector<int64_t>> kw_ints(std::string_view name) const;
  /// TensorOptions carrying the `dtype` keyword when present.
  TensorOptions options() const;

 private:
  const Case& c_;
};

using OpFn = std::function<Value(const Args&)>;

/// Registers a family's ops at static-initialisation time; duplicate names are reported by find_op.
class OpTable {
 public:
  OpTable(const char* family, std::initializer_list<std::pair<const char*, OpFn>> ops);
};

/// The registered op, or nullptr.
const OpFn* find_op(const std::string& name);
/// Names registered twice (across all tables): a harness error the runner reports.
std::vector<std::string> duplicate_ops();

/// The float outputs of an op's result that require grad, in order (a list result contributes
/// each of its tensors).
std::vector<Tensor> differentiable_outputs(const Value& v);

/// Scalar a Value holds (Bool/Int/Float), for ops taking Scalar-or-Tensor operands.
Scalar to_scalar(const Value& v);

}  // namespace brasa::conformance

namespace brasa::conformance {

/// Whether positional argument i was passed and is not None.
inline bool given(const Args& a, size_t i) { return i < a.size() && a.at(i).tag != Tag::None; }
/// Positional argument i as an optional tensor: nullopt when absent or None.
inline std::optional<Tensor> opt(const Args& a, size_t i) {
  if (!given(a, i)) return std::nullopt;
  return a.tensor(i);
}
/// Positional argument i if it is a tensor, else an undefined Tensor (libtorch's "no tensor").
inline Tensor opt_tensor(const Args& a, size_t i) {
  return a.at(i).tag == Tag::Tensor ? a.tensor(i) : Tensor();
}
/// The leading positional tensor arguments.
inline std::vector<Tensor> tensor_args(const Args& a) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < a.size() && a.is_tensor(i); ++i) out.push_back(a.tensor(i));
  return out;
}
/// A two-tensor result (values and indices, ...) as a list Value.
inline Value pair(const std::tuple<Tensor, Tensor>& t) {
  return Value::of_tensors({std::get<0>(t), std::get<1>(t)});
}
/// Positional argument i (a Python bool or number) as a bool.
inline bool flag(const Args& a, size_t i) { return a.scalar(i).to<bool>(); }

/// For in-place and out= forms: the op must return the very tensor it wrote to.
inline Value same_tensor(const Tensor& expected, const Tensor& returned, const char* op) {
  if (!returned.is_same(expected))
    throw std::runtime_error(std::string(op) +
                             " returned a different tensor than the one it wrote");
  return returned;
}

}  // namespace brasa::conformance
