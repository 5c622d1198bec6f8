#include "brasa/autograd/saved_variable.h"

#include "autograd/autograd_meta.h"
#include "brasa/autograd/history.h"
#include "brasa/core/error.h"

namespace brasa::autograd {

SavedVariable::SavedVariable(const Tensor& t, bool is_output) {
  if (!t.defined()) return;
  // Note [Inference tensors]: one has no version history that backward could check.
  BRASA_CHECK_TYPED(RuntimeError, !t.is_inference() || ::brasa::detail::inference_mode_enabled(),
                    "Inference tensors cannot be saved for backward. This one (created in "
                    "InferenceMode; sizes ",
                    t.sizes(), ", dtype ", t.dtype(),
                    "): clone() it outside InferenceMode to use it in autograd");
  version_ = t._version();
  is_output_ = is_output;
  if (!is_output) {
    data_ = t;
    return;
  }
  // An output's grad_fn is the saving node: keep the data only, and the link back on unpack.
  requires_grad_ = t.requires_grad();
  if (AutogradMeta* m = get_meta(t)) output_nr_ = m->output_nr_;
  data_ = shallow_alias(t);
}

Tensor SavedVariable::unpack(const std::shared_ptr<Node>& owner) const {
  if (!data_.defined()) return Tensor();
  if (BRASA_UNLIKELY(data_._version() != version_)) {
    BRASA_THROW(ValueError,
                "one of the variables needed for gradient computation has been modified by an "
                "inplace operation: [",
                data_.toString(), " ", data_.sizes(), "]",
                owner ? ", which is saved by " + owner->name() + " (forward op '" +
                            owner->forward_op() + "')"
                      : std::string(),
                ", is at version ", data_._version(), "; expected version ", version_, " instead");
  }
  if (!is_output_ || !requires_grad_ || !owner) return data_;
  Tensor t = shallow_alias(data_);
  AutogradMeta& m = materialize_meta(t);
  m.grad_fn_ = owner;
  m.output_nr_ = output_nr_;
  t.unsafeGetTensorImpl()->add_key(DispatchKey::Autograd);
  return t;
}

}  // namespace brasa::autograd
