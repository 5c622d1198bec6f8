// Anomaly mode's traces: which forward op made the node whose backward failed, and which earlier
// backward made that node (Note [Anomaly traces]).
#include "autograd/anomaly.h"

#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "brasa/core/warning.h"

namespace brasa::autograd::anomaly {

// Note [Anomaly traces]
// When a node's backward fails under anomaly mode (an error, or NaN/Inf with check_nan), libtorch
// warns with the traceback of the forward call that created the node, and then, for a node created
// by another node's backward (double backward), with the traceback of each such parent, before the
// error propagates. brasa records no stack traces: a node knows the forward op that created it
// (Node::forward_op), so the "traceback" names that op. A node's parent is the node whose backward
// was running on the thread when it was created under anomaly mode; the pairs live in a side
// table (anomaly mode only), so Node itself carries nothing for them, and the table holds the
// parent alive as long as the child, as libtorch's anomaly metadata does.
namespace {
thread_local Node* t_running = nullptr;
std::atomic<bool> g_used{false};
std::mutex g_mutex;
// child -> parent. Once anomaly mode has made a pair, every node's destruction looks itself up
// here, so a hash map (a graph built under anomaly mode may hold many nodes at once). Never
// destroyed: nodes may die during static destruction.
auto& g_parents = *new std::unordered_map<const Node*, std::shared_ptr<Node>>();

std::shared_ptr<Node> parent_of(const Node* node) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_parents.find(node);
  return it == g_parents.end() ? nullptr : it->second;
}

void warn_with_forward_op(const Node& node, const char* what) {
  const char* op = node.forward_op();
  warn(node.name() + what + "  the forward op '" + (*op ? op : "?") +
       "' (brasa records the op, not a stack trace)");
}
}  // namespace

Node* running_node() noexcept { return t_running; }
void set_running_node(Node* node) noexcept { t_running = node; }

void note_parent(const Node& node) {
  Node* parent = t_running;
  if (parent == nullptr) return;
  std::shared_ptr<Node> owner = parent->weak_from_this().lock();
  if (!owner) return;
  g_used.store(true, std::memory_order_relaxed);
  std::shared_ptr<Node> replaced;  // released after the lock, as in forget_node
  std::lock_guard<std::mutex> lock(g_mutex);
  auto [it, inserted] = g_parents.try_emplace(&node, owner);
  if (!inserted) replaced = std::exchange(it->second, std::move(owner));
}

void forget_node(const Node* node) {
  std::shared_ptr<Node> parent;  // released after the lock (its destructor forgets it in turn)
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_parents.find(node);
  if (it == g_parents.end()) return;
  parent = std::move(it->second);
  g_parents.erase(it);
}

bool parents_used() noexcept { return g_used.load(std::memory_order_relaxed); }

void warn_trace(const Node& node) {
  warn_with_forward_op(node,
                       ": error detected. Traceback of forward call that caused the error:\n");
  for (auto parent = parent_of(&node); parent; parent = parent_of(parent.get()))
    warn_with_forward_op(*parent,
                         ": previous calculation was induced by it. Traceback of forward call "
                         "that induced the previous calculation:\n");
}

}  // namespace brasa::autograd::anomaly
