#pragma once
// The graph IR of the compile step: SSA values (graph inputs, literal and captured constants, op
// results) and nodes that each hold one dispatched op call with its boxed arguments, the tensor
// arguments replaced by value ids (Note [Graph IR]).

#include <cstdint>
#include <string>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::compiler {

// Note [Graph IR]
// A node is an op call as the tracer saw it: the boxed argument stack (non-tensor arguments kept
// as they were) plus `refs` saying which stack slots (or list elements) hold which values. The
// interpreter rebuilds the stack from the current values and calls the op through the dispatcher,
// so replaying a node has exactly the op's eager semantics, autograd included. Views and in-place
// ops are replayed as what they are (the values alias as they did in eager); passes that could be
// unsound in their presence (CSE, constant folding, fusion across them) are disabled or stop at
// them (Note [Passes]).

enum class ValueKind : uint8_t {
  Input,     ///< argument i of the compiled function
  Literal,   ///< a wrapped number (`x * 2.0`) or a folded constant: never changes
  Captured,  ///< a tensor the function closes over: read when the graph runs
  Node,      ///< the result of a node
};

struct ValueInfo {
  ValueKind kind = ValueKind::Node;
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;    ///< at trace time
  std::vector<int64_t> strides;  ///< at trace time
  bool contiguous = true;
  bool cpu = true;
  Tensor constant;  ///< Literal and Captured values
};

/// A tensor argument slot: stack[slot], or element `element` of a tensor list there.
struct ArgRef {
  int32_t slot = 0;
  int32_t element = -1;
  int32_t value = 0;
};

/// An int argument that is a product of an input's sizes (Note [Size arguments] in
/// size_arguments.cpp): stack[slot], or element `element` of the int list there, is the product of
/// input `input`'s sizes over dims [dim, dim_end) (an integral Scalar when `scalar`).
struct SizeRef {
  int32_t slot = 0;
  int32_t element = -1;
  int32_t input = 0;
  int32_t dim = 0;
  int32_t dim_end = 1;
  bool scalar = false;

  int64_t of(const Tensor& t) const {
    int64_t n = 1;
    for (int32_t d = dim; d < dim_end; ++d) n *= t.size(d);
    return n;
  }
};

struct Node {
  const OperatorHandle* op = nullptr;
  Stack args;                   ///< as traced; tensor slots are overwritten when replayed
  std::vector<ArgRef> refs;     ///< tensor arguments
  std::vector<ArgRef> results;  ///< tensor results (slot = position on the result stack)
  std::vector<SizeRef> sizes;   ///< int arguments read from the inputs' sizes when replayed
  int32_t num_results = 0;      ///< values the op leaves on the stack
  bool mutates = false;         ///< writes an argument (in-place or out=)
  bool is_view = false;         ///< a result aliases an input
  bool is_random = false;       ///< takes a Generator: never merged, folded or dropped
};

struct Graph {
  int32_t num_inputs = 0;
  std::vector<ValueInfo> values;
  std::vector<Node> nodes;
  std::vector<int32_t> outputs;

  int32_t add_value(ValueInfo info) {
    values.push_back(std::move(info));
    return static_cast<int32_t>(values.size() - 1);
  }
  bool has_mutation() const;
  /// The graph's structure without sizes: equal keys mean the same ops on the same arguments.
  std::string structure_key() const;
  /// A readable listing (BRASA_LOG=graph).
  std::string dump() const;
};

/// Who produces and who reads each value of a graph, and which values are outputs.
struct Uses {
  std::vector<int32_t> producer;              ///< node index, -1 for inputs and constants
  std::vector<std::vector<int32_t>> readers;  ///< node indices, ascending, each once
  std::vector<bool> output;
  explicit Uses(const Graph& g);
};

/// A copy of `n` (Value's converting constructor keeps std::vector<Value> from copy-assigning).
Node clone(const Node& n);
/// A copy of `g`.
Graph clone(const Graph& g);

/// A stable text form of a boxed argument (tensors must already be replaced by refs).
std::string value_key(const Value& v);
/// Builds node `n`'s argument stack from the current `env` (inputs first: size arguments are read
/// from them).
Stack bind_arguments(const Node& n, const std::vector<Tensor>& env);

}  // namespace brasa::compiler
