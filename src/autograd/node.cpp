#include "brasa/autograd/node.h"

#include <atomic>

#include "autograd/anomaly.h"
#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "core/device_hooks.h"

namespace brasa::autograd {
namespace {
std::atomic<uint64_t> g_sequence_nr{0};
std::atomic<unsigned> g_hook_id{0};
}  // namespace

unsigned next_hook_id() { return ++g_hook_id; }

Node::Node() : sequence_nr_(g_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {
  if (BRASA_UNLIKELY(AnomalyMode::is_enabled())) anomaly::note_parent(*this);
}
Node::~Node() {
  if (BRASA_UNLIKELY(anomaly::parents_used())) anomaly::forget_node(this);
}

uint32_t Node::add_input_metadata(const Tensor& t) {
  input_metadata_.push_back(InputMetadata{DimVector(t.sizes()), t.dtype(), t.device()});
  return static_cast<uint32_t>(input_metadata_.size() - 1);
}

unsigned Node::add_tensor_pre_hook(uint32_t output_nr, TensorPreHook hook) {
  unsigned id = next_hook_id();
  pre_hooks_.push_back(PreHook{id, output_nr, std::move(hook)});
  return id;
}

bool Node::remove_tensor_pre_hook(unsigned id) {
  for (auto it = pre_hooks_.begin(); it != pre_hooks_.end(); ++it) {
    if (it->id == id) {
      pre_hooks_.erase(it);
      return true;
    }
  }
  return false;
}

void Node::add_post_hook(PostHook hook) { post_hooks_.push_back(std::move(hook)); }

variable_list Node::operator()(variable_list&& grads) {
  // Hooks are user code that may read raw memory (Note [Core hooks]).
  if (!pre_hooks_.empty() || !post_hooks_.empty()) detail::flush_pending();
  for (const PreHook& h : pre_hooks_) {
    if (h.output_nr >= grads.size() || !grads[h.output_nr].defined()) continue;
    Tensor r = h.fn(grads[h.output_nr]);
    if (r.defined()) grads[h.output_nr] = std::move(r);
  }
  if (post_hooks_.empty()) return apply(std::move(grads));
  variable_list grad_outputs = grads;
  variable_list out = apply(std::move(grads));
  detail::flush_pending();
  for (const PostHook& h : post_hooks_) h(out, grad_outputs);
  return out;
}

variable_list NotImplementedNode::apply(variable_list&&) {
  BRASA_THROW(NotImplementedError, "the derivative for '", op_,
              "' is not implemented (reached in backward)");
}

}  // namespace brasa::autograd
