// Note [Autograd engine]
// backward() and grad() both come here with the edges of the roots and their gradients.
//  1. A GraphRoot node feeds the root gradients along the root edges.
//  2. A walk from the root counts, for every reachable node, how many edges point at it.
//  3. When grad()/backward(inputs=) asks for specific edges ("targets"), a node runs only if
//     some target lies below it (or it is a target accumulator and .grad is being written);
//     gradients arriving at a target edge are captured.
//  4. Ready nodes (all dependencies delivered) run latest-created first, on this thread, with
//     grad mode = create_graph. Each result is checked against the metadata of the node it goes
//     to (broadcast gradients are summed back to the input's shape, dtypes cast), summed into
//     that node's input buffer, and the node becomes ready when its count reaches zero.
//  5. Without retain_graph each node frees its saved tensors after it runs, so a second backward
//     through it fails with a clear message.

#include "autograd/engine.h"

#include <exception>
#include <queue>
#include <thread>
#include <unordered_map>

#include "autograd/anomaly.h"
#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/record_function.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"

namespace brasa::autograd {
namespace {

class GraphRoot final : public Node {
 public:
  explicit GraphRoot(variable_list grads) : grads_(std::move(grads)) {}
  std::string name() const override { return "GraphRoot"; }
  variable_list apply(variable_list&&) override { return std::move(grads_); }

 private:
  variable_list grads_;
};

struct NodeTask {
  int dependencies = 0;
  bool runs = true;
  bool is_target = false;
  variable_list buffer;
};

// Node -> task, open addressing on the pointer (one allocation per backward, not one per node).
class TaskTable {
 public:
  TaskTable() : slots_(16) {}
  // The task of `n`, created if absent; `fresh` tells which.
  NodeTask& get(Node* n, bool* fresh = nullptr) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = find(n);
    bool created = slots_[i].node == nullptr;
    if (created) {
      slots_[i].node = n;
      ++size_;
    }
    if (fresh) *fresh = created;
    return slots_[i].task;
  }
  NodeTask* lookup(Node* n) {
    size_t i = find(n);
    return slots_[i].node ? &slots_[i].task : nullptr;
  }

 private:
  struct Slot {
    Node* node = nullptr;
    NodeTask task;
  };
  size_t find(Node* n) const {
    size_t mask = slots_.size() - 1;
    size_t i = (reinterpret_cast<uintptr_t>(n) >> 4) * 0x9E3779B97F4A7C15ull >> 32 & mask;
    while (slots_[i].node && slots_[i].node != n) i = (i + 1) & mask;
    return i;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_ = std::vector<Slot>(old.size() * 2);
    for (Slot& s : old) {
      if (!s.node) continue;
      Slot& dst = slots_[find(s.node)];
      dst = std::move(s);
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

struct ReadyOrder {
  bool operator()(const std::shared_ptr<Node>& a, const std::shared_ptr<Node>& b) const {
    return a->sequence_nr() < b->sequence_nr();
  }
};

// Sums `g` over the dims where it was broadcast against `sizes`; false if it can't be.
bool reduce_to(Tensor& g, IntArrayRef sizes) {
  int64_t lead = g.dim() - static_cast<int64_t>(sizes.size());
  if (lead < 0) return false;
  DimVector dims;
  for (int64_t d = 0; d < g.dim(); ++d) {
    if (d < lead) {
      dims.push_back(d);
    } else if (sizes[d - lead] != g.size(d)) {
      if (sizes[d - lead] != 1) return false;
      dims.push_back(d);
    }
  }
  if (!dims.empty()) g = g.sum(dims, true);
  if (lead > 0 || g.sizes() != sizes) g = g.view(sizes);
  return true;
}

void validate(const Node& fn, size_t i, Tensor& g, const InputMetadata& meta) {
  if (g.sizes() != IntArrayRef(meta.sizes) && !reduce_to(g, meta.sizes)) {
    BRASA_THROW(InternalError, "Function ", fn.name(), " returned an invalid gradient at index ", i,
                ": got shape ", g.sizes(), " but expected shape compatible with ",
                IntArrayRef(meta.sizes));
  }
  // Note [Complex gradients]
  // A complex gradient reaching a real input (a real tensor that took part in complex
  // arithmetic) keeps its real part: with PyTorch's convention the gradient of a real L with
  // respect to z = x + iy is dL/dx + i dL/dy, so for a real input the imaginary part is not a
  // direction it can move in.
  if (g.is_complex() && !is_complex_type(meta.dtype)) g = g.real();
  if (g.dtype() != meta.dtype) g = g.to(meta.dtype);
}

void check_anomaly(const Node& fn, const variable_list& out) {
  for (size_t i = 0; i < out.size(); ++i) {
    const Tensor& g = out[i];
    if (!g.defined() || !g.is_floating_point()) continue;
    NoGradGuard no_grad;
    bool nan = g.isnan().any().item<bool>();
    if (nan || g.isinf().any().item<bool>()) {
      BRASA_THROW(ValueError, "Function '", fn.name(), "' returned ", nan ? "nan" : "inf",
                  " values in its ", i, "th output; it was created in the forward pass by '",
                  fn.forward_op(), "' (anomaly mode)");
    }
  }
}

void add_into(Tensor& slot, Tensor&& g) {
  if (!slot.defined()) {
    slot = std::move(g);
  } else if (!GradMode::is_enabled() && slot.use_count() == 1 && !slot.is_view() &&
             slot.sizes() == g.sizes() && slot.dtype() == g.dtype()) {
    slot.add_(g);
  } else {
    slot = slot + g;
  }
}

/// Applies a node inside a profiler scope named after it (the ops it runs nest below it), with
/// its incoming gradients' shapes. Out of line: the engine calls it only while a profiler records.
[[gnu::noinline]] variable_list apply_recorded(Node& fn, variable_list&& grads) {
  profiler::RecordScope scope(fn.name(), profiler::EventKind::Backward);
  if (scope.wants_inputs()) scope.set_inputs(Stack(grads.begin(), grads.end()));
  return fn(std::move(grads));
}

// Anomaly mode: the nodes this backward creates remember `fn` as their parent, and an error (or
// NaN/Inf) warns with the forward ops behind it first (Note [Anomaly traces]).
variable_list apply_under_anomaly(Node& fn, variable_list&& grads, bool recorded) {
  struct Running {
    Node* prev = anomaly::running_node();
    explicit Running(Node* n) { anomaly::set_running_node(n); }
    ~Running() { anomaly::set_running_node(prev); }
  } running(&fn);
  try {
    variable_list out = recorded ? apply_recorded(fn, std::move(grads)) : fn(std::move(grads));
    if (AnomalyMode::should_check_nan()) check_anomaly(fn, out);
    return out;
  } catch (...) {
    anomaly::warn_trace(fn);
    throw;
  }
}

}  // namespace

namespace {
// The tasks of the backward running on this thread (innermost, for reentrant backwards).
thread_local TaskTable* t_tasks = nullptr;
// Whether the backward running on this thread keeps its graph (retain_graph); true outside a
// backward (run_backward restores the outer value when it returns).
thread_local bool t_keep_graph = true;
// How many backwards are running on this thread, each inside a node of the one before.
thread_local int t_depth = 0;
constexpr int kMaxReentrantDepth = 60;
}  // namespace

bool edge_needed(const Edge& edge) {
  if (!edge.is_valid()) return false;
  NodeTask* t = t_tasks ? t_tasks->lookup(edge.function.get()) : nullptr;
  return t == nullptr || t->runs || t->is_target;
}

bool backward_keeps_graph() { return t_keep_graph; }

variable_list run_backward(EngineRequest req) {
  // Note [Deep reentrant backward]: a custom Function's backward may call backward() itself, and
  // each level nests on this thread's stack. As libtorch does, past kMaxReentrantDepth levels the
  // nested backward runs on a fresh thread with a stack of its own while this one waits, so a
  // backward thousands of levels deep does not overflow the stack.
  if (t_depth >= kMaxReentrantDepth) {
    variable_list out;
    std::exception_ptr error;
    std::thread([&] {
      try {
        out = run_backward(std::move(req));
      } catch (...) {
        error = std::current_exception();
      }
    }).join();
    if (error) std::rethrow_exception(error);
    return out;
  }
  ++t_depth;
  struct DepthGuard {
    ~DepthGuard() { --t_depth; }
  } depth_guard;
  auto root = std::make_shared<GraphRoot>(std::move(req.root_grads));
  root->set_next_edges(std::move(req.roots));

  TaskTable tasks;
  std::vector<Node*> order{root.get()};  // discovery order, parents before children
  tasks.get(root.get());
  for (size_t k = 0; k < order.size(); ++k) {
    for (const Edge& e : order[k]->next_edges()) {
      if (!e.is_valid()) continue;
      bool fresh = false;
      ++tasks.get(e.function.get(), &fresh).dependencies;
      if (fresh) order.push_back(e.function.get());
    }
  }

  const bool selective = !req.outputs.empty();
  std::unordered_map<Node*, std::vector<std::pair<uint32_t, size_t>>> captures;
  variable_list captured(req.outputs.size());
  if (selective) {
    for (size_t i = 0; i < req.outputs.size(); ++i) {
      const Edge& e = req.outputs[i];
      if (!e.is_valid()) continue;
      captures[e.function.get()].emplace_back(e.input_nr, i);
      if (NodeTask* t = tasks.lookup(e.function.get())) t->is_target = true;
    }
    // A node runs if a target lies below it. Reverse discovery order sees most children before
    // their parents; repeating until nothing changes settles the rest.
    std::unordered_map<Node*, bool> leads;
    bool changed = true;
    for (Node* n : order) leads[n] = false;
    while (changed) {
      changed = false;
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        if (leads[*it]) continue;
        for (const Edge& e : (*it)->next_edges()) {
          if (!e.is_valid()) continue;
          if (tasks.get(e.function.get()).is_target || leads[e.function.get()]) {
            leads[*it] = changed = true;
            break;
          }
        }
      }
    }
    for (Node* n : order) {
      NodeTask& t = tasks.get(n);
      t.runs = leads[n] || (req.accumulate_grad && t.is_target && n->next_edges().empty());
    }
    tasks.get(root.get()).runs = true;
  }

  AutoGradMode grad_mode(req.create_graph);
  struct CurrentTasks {
    TaskTable* prev = t_tasks;
    bool prev_keep = t_keep_graph;
    ~CurrentTasks() { t_tasks = prev, t_keep_graph = prev_keep; }
  } current;
  t_tasks = &tasks;
  t_keep_graph = req.keep_graph;
  std::priority_queue<std::shared_ptr<Node>, std::vector<std::shared_ptr<Node>>, ReadyOrder> ready;
  ready.push(root);
  while (!ready.empty()) {
    std::shared_ptr<Node> fn = ready.top();
    ready.pop();
    NodeTask& task = tasks.get(fn.get());
    variable_list inputs = std::move(task.buffer);
    if (task.is_target) {
      for (auto [nr, slot] : captures[fn.get()])
        if (nr < inputs.size()) captured[slot] = inputs[nr];
    }
    if (!task.runs) continue;
    const bool recorded =
        BRASA_UNLIKELY(brasa::detail::g_record_ops.load(std::memory_order_relaxed)) && fn != root;
    variable_list outputs = BRASA_UNLIKELY(AnomalyMode::is_enabled())
                                ? apply_under_anomaly(*fn, std::move(inputs), recorded)
                            : recorded ? apply_recorded(*fn, std::move(inputs))
                                       : (*fn)(std::move(inputs));
    if (!req.keep_graph) fn->release_variables();
    const edge_list& edges = fn->next_edges();
    if (outputs.size() != edges.size()) {
      BRASA_THROW(InternalError, "Function ", fn->name(), " returned ", outputs.size(),
                  " gradients but has ", edges.size(), " inputs");
    }
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& e = edges[i];
      if (!e.is_valid()) continue;
      NodeTask& next = tasks.get(e.function.get());
      if (!next.runs && !next.is_target) continue;
      Tensor& g = outputs[i];
      if (g.defined()) {
        validate(*fn, i, g, e.function->input_metadata(e.input_nr));
        if (next.buffer.size() < e.function->num_inputs())
          next.buffer.resize(e.function->num_inputs());
        add_into(next.buffer[e.input_nr], std::move(g));
      }
      if (--next.dependencies == 0) {
        if (next.buffer.size() < e.function->num_inputs())
          next.buffer.resize(e.function->num_inputs());
        ready.push(e.function);
      }
    }
  }
  return captured;
}

}  // namespace brasa::autograd
