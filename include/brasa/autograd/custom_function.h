#pragma once
// Custom differentiable functions, spelled as in libtorch:
//
//   struct MulConstant : torch::autograd::Function<MulConstant> {
//     static Tensor forward(AutogradContext* ctx, Tensor x, double c) {
//       ctx->saved_data["c"] = c;
//       return x * c;
//     }
//     static variable_list backward(AutogradContext* ctx, variable_list grads) {
//       return {grads[0] * ctx->saved_data["c"].toDouble(), Tensor()};
//     }
//   };
//   Tensor y = MulConstant::apply(x, 2.0);
//
// forward runs with grad mode off; backward returns one gradient per forward argument (extra
// undefined ones for non-tensor arguments are allowed).

#include <initializer_list>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "brasa/autograd/history.h"
#include "brasa/autograd/saved_variable.h"
#include "brasa/core/error.h"

namespace brasa::autograd {

/// A value in ctx->saved_data: tensor, double, int, bool or string.
class BRASA_API SavedData {
 public:
  SavedData() = default;
  SavedData(Tensor t) : tensor_(std::move(t)), kind_(kTensor) {}  // NOLINT
  SavedData(double d) : d_(d), kind_(kDouble) {}                  // NOLINT
  SavedData(float d) : d_(d), kind_(kDouble) {}                   // NOLINT
  SavedData(int64_t i) : i_(i), kind_(kInt) {}                    // NOLINT
  SavedData(int i) : i_(i), kind_(kInt) {}                        // NOLINT
  SavedData(bool b) : i_(b), kind_(kBool) {}                      // NOLINT
  SavedData(std::string s) : s_(std::move(s)), kind_(kString) {}  // NOLINT
  SavedData(const char* s) : s_(s), kind_(kString) {}             // NOLINT
  double toDouble() const;
  int64_t toInt() const;
  bool toBool() const;
  const Tensor& toTensor() const;
  const std::string& toStringRef() const;
  bool isTensor() const { return kind_ == kTensor; }
  bool isDouble() const { return kind_ == kDouble; }
  bool isInt() const { return kind_ == kInt; }

 private:
  enum Kind { kNone, kTensor, kDouble, kInt, kBool, kString };
  Tensor tensor_;
  double d_ = 0;
  int64_t i_ = 0;
  std::string s_;
  Kind kind_ = kNone;
};

class BRASA_API AutogradContext {
 public:
  /// Saves tensors for backward (checked against in-place changes when unpacked).
  void save_for_backward(variable_list to_save);
  /// The saved tensors; throws after the graph was freed.
  variable_list get_saved_variables() const;
  /// Tensors the forward modified in place (their history is rebased onto this function).
  void mark_dirty(const variable_list& inputs);
  /// Outputs that get no gradient (e.g. indices).
  void mark_non_differentiable(const variable_list& outputs);
  void set_materialize_grads(bool value) { materialize_grads_ = value; }
  /// Whether the gradient of forward argument `i` is needed.
  bool needs_input_grad(size_t i) const;
  /// Whether the gradient of any forward argument in the ranges is needed.
  bool needs_input_grad(std::initializer_list<IndexRange> ranges) const;

  std::unordered_map<std::string, SavedData> saved_data;

  // ---- used by Function<T>::apply ----
  void set_node(std::weak_ptr<Node> node) { node_ = std::move(node); }
  void finish_saving(const variable_list& outputs);
  void release() {
    saved_.clear();
    to_save_.clear();
    released_ = true;
  }
  bool is_dirty(const Tensor& t) const { return dirty_.count(t.unsafeGetTensorImpl()) != 0; }
  /// Bumps the version of every tensor mark_dirty named (libtorch does so when the outputs are
  /// wrapped: writes through data_ptr would not bump it).
  void bump_dirty_versions() const;
  bool is_non_differentiable(const Tensor& t) const {
    return non_differentiable_.count(t.unsafeGetTensorImpl()) != 0;
  }
  bool materialize_grads() const { return materialize_grads_; }

 private:
  variable_list to_save_;
  std::vector<SavedVariable> saved_;
  std::unordered_set<TensorImpl*> dirty_;
  std::unordered_set<const TensorImpl*> non_differentiable_;
  std::weak_ptr<Node> node_;
  bool materialize_grads_ = true;
  bool released_ = false;
};

/// The node of a custom function; runs T::backward.
class BRASA_API CustomNodeBase : public Node {
 public:
  AutogradContext ctx;
  std::vector<int> tensor_arg_positions;   // forward argument index of each next edge
  std::vector<int> tensor_flat_positions;  // index of each next edge among the flat inputs
  size_t num_forward_args = 0;
  // libtorch counts the inputs flat: each tensor of a tensor list, and each other argument.
  size_t num_flat_inputs = 0;
  variable_list apply(variable_list&& grads) override;
  void release_variables() override { ctx.release(); }

 protected:
  virtual variable_list call_backward(variable_list grads) = 0;
};

template <class T>
class CustomNode final : public CustomNodeBase {
 public:
  std::string name() const override { return std::string(typeid(T).name()) + "Backward"; }

 private:
  variable_list call_backward(variable_list grads) override {
    return T::backward(&ctx, std::move(grads));
  }
};

namespace detail {
/// The tensor inputs of a forward call: every Tensor argument and every tensor of a
/// variable_list or TensorList argument, with their argument and flat positions.
struct CollectedArgs {
  std::vector<Tensor> tensors;
  std::vector<int> arg_positions, flat_positions;
  int args = 0, flat = 0;
  BRASA_API void add(const Tensor& t);
};
inline void collect_arg(CollectedArgs& c, const Tensor& t) {
  c.add(t);
  ++c.args;
}
inline void collect_arg(CollectedArgs& c, ArrayRef<Tensor> list) {
  for (const Tensor& t : list) c.add(t);
  ++c.args;
}
inline void collect_arg(CollectedArgs& c, const variable_list& list) {
  collect_arg(c, ArrayRef<Tensor>(list));
}
template <class A>
void collect_arg(CollectedArgs& c, const A&) {
  ++c.args;
  ++c.flat;
}
/// Connects the forward's outputs to `node` (dirty inputs are rebased, non-differentiable ones
/// skipped) once inputs are known.
BRASA_API void wrap_outputs(CustomNodeBase& node, const std::shared_ptr<Node>& self,
                            const variable_list& inputs, variable_list& outputs, bool needs_grad);
}  // namespace detail

template <class T>
struct Function {
  template <class... Args>
  static auto apply(Args&&... args) {
    detail::CollectedArgs collected;
    (detail::collect_arg(collected, args), ...);
    const std::vector<Tensor>& inputs = collected.tensors;
    bool needs_grad = false;
    if (GradMode::is_enabled())
      for (const Tensor& t : inputs) needs_grad = needs_grad || (t.defined() && t.requires_grad());
    auto node = std::make_shared<CustomNode<T>>();
    node->tensor_arg_positions = collected.arg_positions;
    node->tensor_flat_positions = collected.flat_positions;
    node->num_forward_args = static_cast<size_t>(collected.args);
    node->num_flat_inputs = static_cast<size_t>(collected.flat);
    node->ctx.set_node(node);
    if (needs_grad) node->set_next_edges(collect_next_edges(ArrayRef<Tensor>(inputs)));
    using R = decltype(T::forward(&node->ctx, std::forward<Args>(args)...));
    R result = [&] {
      AutoGradMode no_grad(false);
      return T::forward(&node->ctx, std::forward<Args>(args)...);
    }();
    variable_list outs;
    if constexpr (std::is_same_v<std::decay_t<R>, Tensor>) {
      outs.push_back(result);
    } else {
      outs = result;
    }
    detail::wrap_outputs(*node, node, inputs, outs, needs_grad);
    if constexpr (std::is_same_v<std::decay_t<R>, Tensor>) {
      return outs[0];
    } else {
      return outs;
    }
  }
};

}  // namespace brasa::autograd
