// The in-place rules for views whose creation kind forbids writing into them once autograd would
// have to record the write (Note [View creation meta]), and their libtorch 1.13 messages.

#include "autograd/autograd_meta.h"
#include "brasa/autograd/history.h"
#include "brasa/core/error.h"

namespace brasa::autograd {
namespace {

// libtorch's words, which programs and its tests match, start each message: a sentence naming the
// view and what happened to it, then one naming the kind when the first does not. The view is
// named by the mode it was made in, or by its grad_fn for the kinds that have one (a view of a
// no-grad or InferenceMode view made in grad mode has one too, where libtorch fails an internal
// assert; brasa names the mode). brasa's own advice follows.
std::string view_write_header(const Tensor& t, CreationMeta kind, bool indirect) {
  const char* what = indirect ? "its base or another view of its base has been" : "is being";
  const AutogradMeta* m = get_meta(t);
  if (m && m->grad_fn_ && kind != CreationMeta::NO_GRAD_MODE &&
      kind != CreationMeta::INFERENCE_MODE) {
    return detail::str_cat("Output ", m->output_nr_, " of ", m->grad_fn_->name(), " is a view and ",
                           what, " modified inplace.");
  }
  if (kind == CreationMeta::INFERENCE_MODE)
    return detail::str_cat("A view was created in inference mode and ", what,
                           " modified inplace in normal mode.");
  return detail::str_cat("A view was created in no_grad mode and ", what,
                         " modified inplace with grad mode enabled.");
}

const char* kind_sentence(CreationMeta kind) {
  switch (kind) {
    case CreationMeta::MULTI_OUTPUT_NODE:
      return " This view is the output of a function that returns multiple views.";
    case CreationMeta::IN_CUSTOM_FUNCTION:
      return " This view was created inside a custom Function (or because an input was returned "
             "as-is) and the autograd logic to handle view+inplace would override the custom "
             "backward associated with the custom Function, leading to incorrect gradients.";
    default: return "";
  }
}

const char* remedy(CreationMeta kind) {
  switch (kind) {
    case CreationMeta::MULTI_OUTPUT_NODE: return "write out of place instead, or into a clone";
    case CreationMeta::IN_CUSTOM_FUNCTION:
      return "clone the custom Function's output before writing into it";
    case CreationMeta::INFERENCE_MODE:
      return "make the view and the write both inside InferenceMode or both outside, or clone it";
    default:
      return "make the view and the write both in grad mode or both in no-grad mode, or clone it";
  }
}

}  // namespace

std::string inplace_op_name(const char* op, InplaceOpName naming) {
  std::string name(op);
  if (naming == InplaceOpName::kAsGiven) return name;
  name = name.substr(0, name.find('.'));  // an overload's name: "clamp.Tensor"
  if (name.empty() || name.back() != '_') name += '_';
  return name;
}

void throw_view_write(const Tensor& t, CreationMeta kind, const char* op, InplaceOpName naming) {
  BRASA_THROW(RuntimeError, view_write_header(t, kind, false), kind_sentence(kind), " (",
              inplace_op_name(op, naming), " on a view of sizes ", t.sizes(), ": ", remedy(kind),
              ")");
}

void check_view_not_rebased(const Tensor& t) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  CreationMeta kind = impl->creation_meta();
  if (kind == CreationMeta::DEFAULT || !impl->view_base() ||
      impl->creation_version() == t._version())
    return;
  // As libtorch: only a view with history, or whose base requires grad, has a grad_fn to rebuild.
  const AutogradMeta* m = get_meta(t);
  const auto* base_meta = impl->view_base()->autograd_meta();
  if (!(m && m->grad_fn_) && !(base_meta && base_meta->requires_grad())) return;
  BRASA_THROW(RuntimeError, view_write_header(t, kind, true), kind_sentence(kind),
              " (a view of sizes ", t.sizes(), ": ", remedy(kind), ")");
}

}  // namespace brasa::autograd
