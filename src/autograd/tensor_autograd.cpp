// Tensor's autograd methods (requires_grad, grad, grad_fn, backward, detach, hooks).

#include "autograd/autograd_meta.h"
#include "brasa/autograd/autograd.h"
#include "brasa/autograd/history.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"

namespace brasa {

using autograd::AutogradMeta;
using autograd::get_meta;
using autograd::materialize_meta;

bool Tensor::requires_grad() const {
  auto* m = impl_->autograd_meta();
  if (m && m->requires_grad()) return true;
  // Like libtorch's differentiable views, a view answers with its base, also when it was taken
  // with grad mode off or the base started requiring grad later (make_view records the root).
  // A view of an inference tensor is no differentiable view in libtorch: it answers for itself.
  const auto& base = impl_->view_base();
  if (!base || impl_->is_inference()) return false;
  auto* bm = base->autograd_meta();
  return bm && bm->requires_grad();
}

const Tensor& Tensor::set_requires_grad(bool r) const {
  AutogradMeta* m = get_meta(*this);
  if (m && m->grad_fn_) {
    BRASA_CHECK(r,
                "requires_grad_: you can only change requires_grad flags of leaf variables. "
                "Use detach() to get a tensor without history");
    return *this;
  }
  if (!r && !m) return *this;
  BRASA_CHECK_TYPE(!r || is_floating_type(dtype()) || is_complex_type(dtype()),
                   "requires_grad_: Only Tensors of floating point and complex dtype can require "
                   "gradients, "
                   "got ",
                   dtype());
  BRASA_CHECK(!r || !is_inference() || detail::inference_mode_enabled(),
              "requires_grad_: Setting requires_grad=True on inference tensor outside "
              "InferenceMode is not allowed.");
  materialize_meta(*this).requires_grad_ = r;
  // An inference tensor keeps the flag but never the Autograd key: ops on it alone record
  // nothing, in InferenceMode or outside (libtorch's inference tensors have no autograd keys).
  if (r && !is_inference()) {
    impl_->add_key(DispatchKey::Autograd);
  } else {
    impl_->remove_key(DispatchKey::Autograd);
  }
  return *this;
}

const Tensor& Tensor::grad() const {
  static const Tensor kUndefined;
  AutogradMeta* m = get_meta(*this);
  if (!m) return kUndefined;
  if (m->retained_grad_) return *m->retained_grad_;
  if (m->grad_fn_ && !m->grad_.defined()) {
    warn(
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed; it is not "
        "filled in by backward(). Call .retain_grad() on the non-leaf Tensor if you want its "
        "gradient, or access the leaf Tensor instead (as libtorch warns).");
  }
  return m->grad_;
}

Tensor& Tensor::mutable_grad() const {
  AutogradMeta& m = materialize_meta(*this);
  return m.retained_grad_ ? *m.retained_grad_ : m.grad_;
}

const std::shared_ptr<autograd::Node>& Tensor::grad_fn() const {
  static const std::shared_ptr<autograd::Node> kNone;
  if (impl_->creation_meta() != CreationMeta::DEFAULT) autograd::check_view_not_rebased(*this);
  AutogradMeta* m = get_meta(*this);
  if (!m) return kNone;
  if (m->is_view_) autograd::gradient_edge(*this);  // refreshes a stale view's grad_fn
  return m->grad_fn_;
}

bool Tensor::is_leaf() const {
  AutogradMeta* m = get_meta(*this);
  return !m || !m->grad_fn_;
}

int64_t Tensor::output_nr() const {
  AutogradMeta* m = get_meta(*this);
  return m ? m->output_nr_ : 0;
}

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph,
                      OptionalArrayRef<Tensor> inputs) const {
  BRASA_CHECK(!inputs || !inputs->empty(),
              "backward: 'inputs' argument to backward() cannot be empty (leave it out to "
              "accumulate into every leaf)");
  autograd::variable_list grads;
  if (gradient.defined()) grads.push_back(gradient);
  autograd::backward({*this}, grads, retain_graph, create_graph,
                     inputs ? inputs->vec() : autograd::variable_list{});
}

Tensor Tensor::detach() const { return autograd::shallow_alias(*this); }

const Tensor& Tensor::detach_() const {
  BRASA_CHECK(!is_view() || !requires_grad(),
              "detach_: can't detach views in-place; use detach() instead");
  if (AutogradMeta* m = get_meta(*this)) {
    m->grad_fn_.reset();
    m->requires_grad_ = false;
    m->output_nr_ = 0;
    m->is_view_ = false;
  }
  impl_->remove_key(DispatchKey::Autograd);
  return *this;
}

void Tensor::retain_grad() const {
  BRASA_CHECK(requires_grad(),
              "retain_grad: can't retain_grad on a tensor that has "
              "requires_grad=False");
  if (is_leaf()) return;
  AutogradMeta& m = materialize_meta(*this);
  if (m.retained_grad_) return;
  // The node may outlive this tensor, so the gradient goes to a cell both of them own.
  m.retained_grad_ = std::make_shared<Tensor>();
  autograd::move_retains_grad_hook(m, nullptr);
}

bool Tensor::retains_grad() const {
  AutogradMeta* m = get_meta(*this);
  return m && m->retained_grad_;
}

unsigned Tensor::register_hook_impl(std::function<Tensor(const Tensor&)> hook) const {
  BRASA_CHECK(requires_grad(),
              "register_hook: cannot register a hook on a tensor that doesn't "
              "require gradient");
  AutogradMeta& m = materialize_meta(*this);
  if (m.grad_fn_) {
    unsigned id =
        m.grad_fn_->add_tensor_pre_hook(static_cast<uint32_t>(m.output_nr_), std::move(hook));
    autograd::move_retains_grad_hook(m, m.grad_fn_);  // keeps retain_grad's hook last
    return id;
  }
  unsigned id = autograd::next_hook_id();
  m.hooks_.push_back(autograd::LeafHook{id, std::move(hook)});
  return id;
}

void Tensor::remove_hook(unsigned id) const {
  AutogradMeta* m = get_meta(*this);
  BRASA_CHECK(m, "remove_hook: this tensor has no hooks");
  if (m->grad_fn_ && m->grad_fn_->remove_tensor_pre_hook(id)) return;
  for (auto it = m->hooks_.begin(); it != m->hooks_.end(); ++it) {
    if (it->id == id) {
      m->hooks_.erase(it);
      return;
    }
  }
  BRASA_THROW(ValueError, "remove_hook: Invalid index, no hook with id ", id);
}

void Tensor::register_post_accumulate_grad_hook(std::function<void(const Tensor&)> hook) const {
  BRASA_CHECK(is_leaf() && requires_grad(),
              "register_post_accumulate_grad_hook: only leaf tensors that require grad accept "
              "post-accumulate-grad hooks");
  materialize_meta(*this).post_accumulate_hooks_.push_back(std::move(hook));
}

void Tensor::set_data(const Tensor& new_data) const {
  BRASA_CHECK(new_data.defined(), "set_data: new data is undefined");
  TensorImpl* src = new_data.unsafeGetTensorImpl();
  impl_->set_storage(src->storage());
  impl_->set_dtype(src->dtype());
  impl_->set_device(src->device());
  impl_->set_sizes_and_strides(src->sizes(), src->strides(), src->storage_offset());
}

}  // namespace brasa
