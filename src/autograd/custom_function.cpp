#include "brasa/autograd/custom_function.h"

#include <unordered_set>

#include "autograd/autograd_meta.h"
#include "autograd/engine.h"
#include "brasa/ops/factory.h"
#include "core/demangle.h"

namespace brasa::autograd {

double SavedData::toDouble() const {
  BRASA_CHECK_TYPE(kind_ == kDouble || kind_ == kInt, "saved_data: value is not a number");
  return kind_ == kDouble ? d_ : static_cast<double>(i_);
}
int64_t SavedData::toInt() const {
  BRASA_CHECK_TYPE(kind_ == kInt || kind_ == kBool, "saved_data: value is not an int");
  return i_;
}
bool SavedData::toBool() const {
  BRASA_CHECK_TYPE(kind_ == kBool, "saved_data: value is not a bool");
  return i_ != 0;
}
const Tensor& SavedData::toTensor() const {
  BRASA_CHECK_TYPE(kind_ == kTensor, "saved_data: value is not a tensor");
  return tensor_;
}
const std::string& SavedData::toStringRef() const {
  BRASA_CHECK_TYPE(kind_ == kString, "saved_data: value is not a string");
  return s_;
}

void AutogradContext::save_for_backward(variable_list to_save) { to_save_ = std::move(to_save); }

void AutogradContext::finish_saving(const variable_list& outputs) {
  saved_.clear();
  for (const Tensor& t : to_save_) {
    bool is_output = false;
    for (const Tensor& o : outputs) is_output = is_output || (t.defined() && o.is_same(t));
    saved_.emplace_back(t, is_output);
  }
  to_save_.clear();
}

variable_list AutogradContext::get_saved_variables() const {
  BRASA_CHECK(!released_,
              "Trying to backward through the graph a second time (or directly "
              "access saved tensors after they have already been freed); pass "
              "retain_graph=true to the first backward");
  variable_list out;
  auto node = node_.lock();
  for (const SavedVariable& s : saved_) out.push_back(s.unpack(node));
  if (out.empty() && !to_save_.empty()) return to_save_;
  return out;
}

void AutogradContext::mark_dirty(const variable_list& inputs) {
  for (const Tensor& t : inputs)
    if (t.defined()) dirty_.insert(t.unsafeGetTensorImpl());
}

void AutogradContext::bump_dirty_versions() const {
  for (TensorImpl* impl : dirty_) impl->bump_version();
}

void AutogradContext::mark_non_differentiable(const variable_list& outputs) {
  for (const Tensor& t : outputs) non_differentiable_.insert(t.unsafeGetTensorImpl());
}

bool AutogradContext::needs_input_grad(size_t i) const {
  auto node = node_.lock();
  if (!node) return false;
  auto* custom = static_cast<CustomNodeBase*>(node.get());
  for (size_t e = 0; e < custom->tensor_arg_positions.size(); ++e)
    if (static_cast<size_t>(custom->tensor_arg_positions[e]) == i)
      return custom->should_compute_output(e) && edge_needed(custom->next_edge(e));
  return false;
}

bool AutogradContext::needs_input_grad(std::initializer_list<IndexRange> ranges) const {
  for (const IndexRange& r : ranges)
    for (size_t i = r.first; i < r.second; ++i)
      if (needs_input_grad(i)) return true;
  return false;
}

variable_list CustomNodeBase::apply(variable_list&& grads) {
  if (ctx.materialize_grads()) {
    for (size_t i = 0; i < grads.size() && i < num_inputs(); ++i) {
      if (grads[i].defined()) continue;
      const InputMetadata& m = input_metadata(i);
      grads[i] = zeros(m.sizes, TensorOptions(m.dtype).device(m.device));
    }
  }
  variable_list got = call_backward(std::move(grads));
  size_t n_tensors = tensor_arg_positions.size();
  // libtorch's count: one gradient per flat input (each tensor of a list, each other argument);
  // brasa also takes one per tensor input, and undefined extras at the end.
  size_t given = got.size();
  while (given > num_flat_inputs && !got[given - 1].defined()) --given;
  BRASA_CHECK(given == num_flat_inputs || given >= n_tensors, name(),
              ": backward returned an incorrect number of gradients (expected ", num_flat_inputs,
              ", got ", got.size(), ")");
  variable_list out(n_tensors);
  bool per_flat = given == num_flat_inputs;
  for (size_t e = 0; e < n_tensors; ++e)
    out[e] = got[per_flat ? static_cast<size_t>(tensor_flat_positions[e]) : e];
  return out;
}

namespace detail {
void CollectedArgs::add(const Tensor& t) {
  tensors.push_back(t);
  arg_positions.push_back(args);
  flat_positions.push_back(flat++);
}

// Note [Custom Function outputs]
// As libtorch: an input returned as-is comes back as a new view of it (with the Function as its
// grad_fn when it is differentiable; detached when it requires grad but is not), and every output
// that is a view, a dirty input apart, records that a custom Function made it (Note [View creation
// meta]): writing into it in place would replace the custom backward. With more than one
// differentiable output the kind is MULTI_OUTPUT_NODE, as for the built-in ops returning several
// views.
static Tensor view_of_input(const Tensor& input) {
  AutoGradMode no_grad(false);
  return input.view_as(input);
}

// The Function's name for messages: its node's name ends in "Backward" after the mangled type name
// (`typeid(T).name()`), which is demangled here.
static std::string function_name(const CustomNodeBase& node) {
  std::string n = node.name();
  const std::string suffix = "Backward";
  if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
    n.resize(n.size() - suffix.size());
  return brasa::detail::demangle(n.c_str());
}

// The inputs marked dirty that are not among `outputs`.
static size_t dirty_inputs_not_returned(const AutogradContext& ctx, const variable_list& inputs,
                                        const variable_list& outputs) {
  std::unordered_set<const TensorImpl*> missing;
  for (const Tensor& in : inputs)
    if (in.defined() && ctx.is_dirty(in)) missing.insert(in.unsafeGetTensorImpl());
  for (const Tensor& out : outputs)
    if (out.defined()) missing.erase(out.unsafeGetTensorImpl());
  return missing.size();
}

void wrap_outputs(CustomNodeBase& node, const std::shared_ptr<Node>& self,
                  const variable_list& inputs, variable_list& outputs, bool needs_grad) {
  // As libtorch: an input written in place is returned, so that its new history (or, without
  // grad, its new version) goes with the value the caller gets.
  const size_t not_returned = dirty_inputs_not_returned(node.ctx, inputs, outputs);
  BRASA_CHECK_TYPED(RuntimeError, not_returned == 0, function_name(node), ": ", not_returned,
                    " input(s) marked dirty (written in place) are not among the Function's ",
                    outputs.size(),
                    " outputs; every input a Function modifies in place must be returned");
  node.ctx.bump_dirty_versions();
  int differentiable = 0;
  std::vector<bool> dirty_input(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tensor& out = outputs[i];
    if (!out.defined()) continue;
    bool is_input = false;
    for (const Tensor& in : inputs) is_input = is_input || in.is_same(out);
    const bool dirty = node.ctx.is_dirty(out);
    dirty_input[i] = is_input && dirty;
    if (!needs_grad || node.ctx.is_non_differentiable(out) || !out.is_floating_point()) {
      if (is_input && !dirty) out = out.requires_grad() ? out.detach() : view_of_input(out);
      node.add_input_metadata(out);  // keeps output numbering aligned with the grads
      continue;
    }
    ++differentiable;
    if (dirty) {
      // Note [A view written by a custom Function]: rebasing a view's history gives its base a
      // grad_fn whose one output is this view; a Function with other outputs cannot be that.
      BRASA_CHECK_TYPED(
          RuntimeError, !(out.unsafeGetTensorImpl()->view_base() && outputs.size() > 1),
          function_name(node), ": input ", out.sizes(),
          " is a view of another tensor written in place (mark_dirty), and the Function returns ",
          outputs.size(),
          " tensors. A Function that writes a view input in place can return only that one "
          "tensor: clone the input first, or split the Function into one that writes in place "
          "and returns one tensor and one that computes the rest");
      check_inplace_named(out, node.name().c_str(), InplaceOpName::kAsGiven);
      rebase_history(out, self);
    } else {
      if (is_input) out = view_of_input(out);
      set_history(out, self);
    }
  }
  const CreationMeta kind =
      differentiable > 1 ? CreationMeta::MULTI_OUTPUT_NODE : CreationMeta::IN_CUSTOM_FUNCTION;
  for (size_t i = 0; i < outputs.size(); ++i) {
    TensorImpl* impl = outputs[i].defined() ? outputs[i].unsafeGetTensorImpl() : nullptr;
    if (impl && impl->view_base() && !dirty_input[i])
      impl->set_creation_meta(kind, impl->version());
  }
  node.ctx.finish_saving(outputs);
}

}  // namespace detail
}  // namespace brasa::autograd
