#pragma once
// Note [Overload node names]
// libtorch names a node after the overload that made it: x.sum() is SumBackward0 and x.sum(1)
// SumBackward1, x.mul(y) MulBackward0 and x.mul(2) MulBackward1, x.t() TBackward0, x.clone()
// CloneBackward0. Where brasa runs several of libtorch's overloads on one dispatched op, the entry
// point of an overload names its node with a NodeName guard around the call: the next
// FunctionNode made takes that name (and clears it). A guard goes only around the call of one
// dispatched op whose derivative makes one node (in a composition it would name the first node
// made); nested guards restore the outer name, so an op that clones its input to save it still
// gets its own. Python calls reach the ops without a guard, as PyTorch's Python binding calls the
// Tensor overloads (x * 2 is MulBackward0 there).

namespace brasa::autograd {

/// The name the next FunctionNode takes instead of its own (nullptr: its own).
const char*& next_node_name();

/// `name`, or the pending overload name (which it clears).
inline const char* take_node_name(const char* name) {
  const char*& pending = next_node_name();
  if (!pending) return name;
  const char* taken = pending;
  pending = nullptr;
  return taken;
}

/// RAII: sets the thread-local name `Slot()` refers to for its scope, then restores the outer one
/// (nested guards nest). NodeName and InplaceName (dispatch/inplace_name.h).
template <const char*& (*Slot)()>
class ScopedName {
 public:
  explicit ScopedName(const char* name) : outer_(Slot()) { Slot() = name; }
  ~ScopedName() { Slot() = outer_; }
  ScopedName(const ScopedName&) = delete;
  ScopedName& operator=(const ScopedName&) = delete;

 private:
  const char* outer_;
};

/// RAII: names the node of the call in its scope (nullptr: the op's own name).
using NodeName = ScopedName<&next_node_name>;

}  // namespace brasa::autograd
