#pragma once
// Anomaly mode's record of where backward nodes came from (Note [Anomaly traces]).

#include <memory>

#include "brasa/autograd/node.h"

namespace brasa::autograd::anomaly {

/// The node whose backward this thread is running under anomaly mode (null otherwise); set by the
/// engine so that nodes created by that backward know their parent.
Node* running_node() noexcept;
void set_running_node(Node* node) noexcept;

/// Called by Node's constructor under anomaly mode: remembers the running node as `node`'s parent.
void note_parent(const Node& node);
/// Called by Node's destructor once any parent was remembered.
void forget_node(const Node* node);
/// Whether note_parent ever remembered a parent in this process.
bool parents_used() noexcept;

/// Warns, as libtorch's anomaly mode does before an error in `node`'s backward propagates, with
/// the forward op that created `node`, then with that of each node whose backward created it.
void warn_trace(const Node& node);

}  // namespace brasa::autograd::anomaly
