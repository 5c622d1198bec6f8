#pragma once
// Node: one step of the backward graph (a grad_fn). It receives the gradients of its forward
// op's outputs and returns the gradients of the forward op's inputs, which flow along its next
// edges. See Note [Autograd engine] in src/autograd/engine.cpp.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "brasa/core/small_vector.h"
#include "brasa/core/tensor.h"

namespace brasa::autograd {

using Variable = Tensor;
using variable_list = std::vector<Tensor>;
using tensor_list = std::vector<Tensor>;  // libtorch's other name for the same list
/// A half-open range [first, second) of a node's inputs or outputs (libtorch's IndexRange).
using IndexRange = std::pair<size_t, size_t>;
class Node;

/// Where a gradient goes: input `input_nr` of node `function` (null function: nowhere).
struct Edge {
  Edge() = default;
  Edge(std::shared_ptr<Node> fn, uint32_t nr) : function(std::move(fn)), input_nr(nr) {}
  bool is_valid() const { return function != nullptr; }
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
};
using edge_list = std::vector<Edge>;

/// Shape, dtype and device of one forward output; the gradient arriving for it must match.
struct InputMetadata {
  DimVector sizes;
  ScalarType dtype = kFloat;
  Device device;
};

using TensorPreHook = std::function<Tensor(const Tensor&)>;

/// The metadata of a node's forward outputs: the first inline (most ops have one output).
class InputMetadataList {
 public:
  size_t size() const { return first_ ? 1 + rest_.size() : 0; }
  const InputMetadata& operator[](size_t i) const { return i == 0 ? *first_ : rest_[i - 1]; }
  void push_back(InputMetadata m) {
    if (!first_) {
      first_.emplace(std::move(m));
    } else {
      rest_.push_back(std::move(m));
    }
  }

 private:
  std::optional<InputMetadata> first_;
  std::vector<InputMetadata> rest_;
};

class BRASA_API Node : public std::enable_shared_from_this<Node> {
 public:
  Node();
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  /// libtorch-style name, e.g. "MulBackward0".
  virtual std::string name() const = 0;
  /// Gradients of the forward inputs from the gradients of the forward outputs.
  virtual variable_list apply(variable_list&& grads) = 0;
  /// Frees what was saved for backward (after a backward without retain_graph).
  virtual void release_variables() {}

  /// Runs tensor pre-hooks, apply and post-hooks.
  variable_list operator()(variable_list&& grads);

  const edge_list& next_edges() const { return next_edges_; }
  const Edge& next_edge(size_t i) const { return next_edges_[i]; }
  void set_next_edges(edge_list edges) { next_edges_ = std::move(edges); }
  void set_next_edge(size_t i, Edge e) { next_edges_[i] = std::move(e); }
  size_t num_outputs() const { return next_edges_.size(); }
  /// Whether gradient `i` (of forward input i) is needed by anything.
  bool should_compute_output(size_t i) const {
    return i < next_edges_.size() && next_edges_[i].is_valid();
  }

  /// Records one forward output; returns its index (the output's output_nr).
  uint32_t add_input_metadata(const Tensor& t);
  size_t num_inputs() const { return input_metadata_.size(); }
  const InputMetadata& input_metadata(size_t i) const { return input_metadata_[i]; }

  /// Creation order: later nodes run first in backward.
  uint64_t sequence_nr() const { return sequence_nr_; }
  /// The forward op that created this node (named by anomaly mode).
  const char* forward_op() const { return forward_op_; }
  void set_forward_op(const char* op) { forward_op_ = op; }

  /// Hook on the gradient of forward output `output_nr` (Tensor::register_hook on a non-leaf).
  unsigned add_tensor_pre_hook(uint32_t output_nr, TensorPreHook hook);
  bool remove_tensor_pre_hook(unsigned id);
  /// Hook called with (grad_inputs, grad_outputs) after apply.
  using PostHook = std::function<void(const variable_list&, const variable_list&)>;
  void add_post_hook(PostHook hook);

 protected:
  edge_list next_edges_;
  InputMetadataList input_metadata_;

 private:
  struct PreHook {
    unsigned id;
    uint32_t output_nr;
    TensorPreHook fn;
  };
  uint64_t sequence_nr_;
  const char* forward_op_ = "";
  std::vector<PreHook> pre_hooks_;
  std::vector<PostHook> post_hooks_;
};

/// A node that raises when reached: backward of an op that has no derivative.
class BRASA_API NotImplementedNode final : public Node {
 public:
  explicit NotImplementedNode(std::string op) : op_(std::move(op)) {}
  std::string name() const override { return "NotImplemented"; }
  variable_list apply(variable_list&& grads) override;

 private:
  std::string op_;
};

/// Next unique hook id (shared by tensor hooks on nodes and leaves).
BRASA_API unsigned next_hook_id();

}  // namespace brasa::autograd
