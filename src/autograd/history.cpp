// Edges, grad_fn recording, leaf accumulation and in-place rebasing (views included).

#include "brasa/autograd/history.h"

#include "autograd/autograd_meta.h"
#include "autograd/view_nodes.h"
#include "brasa/core/error.h"
#include "brasa/ops/pointwise.h"
#include "core/device_hooks.h"
#include "dispatch/inplace_name.h"

namespace brasa::autograd {

AutogradMeta& materialize_meta(const Tensor& t) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  if (!impl->autograd_meta()) impl->set_autograd_meta(std::make_unique<AutogradMeta>());
  return *static_cast<AutogradMeta*>(impl->autograd_meta());
}

namespace {

// Note [Stealing a view gradient]: a leaf's first gradient becomes its .grad without a copy when
// nothing else can see its memory. A fresh result qualifies; so does a view whose base and
// storage nothing else holds, which is how a Linear's weight gradient arrives: the product's
// backward computes it transposed so that its transpose, the view the weight's TBackward passes
// on, is contiguous. That view becomes .grad as a plain alias of the storage (the base is dropped
// with the view). It must cover the whole storage, so a small gradient never pins a larger buffer.
bool sole_view_of_its_storage(const Tensor& g) {
  const TensorImpl* impl = g.unsafeGetTensorImpl();
  const IntrusivePtr<TensorImpl>& base = impl->view_base();
  return base && base->view_base() == nullptr && base.use_count() == 1 &&
         g.storage().use_count() == 2 && g.storage_offset() == 0 &&
         g.nbytes() == g.storage().nbytes();
}

/// Accumulates the incoming gradient into a leaf's .grad (Note [Autograd engine]).
class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(Tensor leaf) : leaf_(std::move(leaf)) { add_input_metadata(leaf_); }
  std::string name() const override { return "AccumulateGrad"; }

  variable_list apply(variable_list&& grads) override {
    Tensor g = std::move(grads[0]);
    if (!g.defined()) return {};
    AutogradMeta& m = materialize_meta(leaf_);
    if (!m.hooks_.empty()) detail::flush_pending();  // user code (Note [Core hooks])
    for (const LeafHook& h : m.hooks_) {
      Tensor r = h.fn(g);
      if (r.defined()) g = std::move(r);
    }
    if (!m.grad_.defined()) {
      const bool stealable =
          !GradMode::is_enabled() && g.use_count() == 1 && g.is_contiguous() && !g.requires_grad();
      if (GradMode::is_enabled() || (stealable && !g.is_view())) {
        m.grad_ = g;
      } else if (stealable && sole_view_of_its_storage(g)) {
        m.grad_ = shallow_alias(g);
      } else {
        m.grad_ = g.clone();
      }
    } else if (GradMode::is_enabled()) {
      m.grad_ = m.grad_ + g;
    } else {
      m.grad_.add_(g);
    }
    if (!m.post_accumulate_hooks_.empty()) detail::flush_pending();
    for (const auto& h : m.post_accumulate_hooks_) h(leaf_);
    return {};
  }

 private:
  Tensor leaf_;
};

}  // namespace

std::shared_ptr<Node> grad_accumulator(const Tensor& leaf) {
  AutogradMeta& m = materialize_meta(leaf);
  if (auto acc = m.grad_accumulator_.lock()) return acc;
  auto acc = std::make_shared<AccumulateGrad>(leaf);
  m.grad_accumulator_ = acc;
  return acc;
}

void move_retains_grad_hook(AutogradMeta& m, const std::shared_ptr<Node>& old_fn) {
  if (!m.retained_grad_ || !m.grad_fn_) return;
  if (old_fn) old_fn->remove_tensor_pre_hook(m.retains_grad_hook_id_);
  m.retains_grad_hook_id_ =
      m.grad_fn_->add_tensor_pre_hook(m.output_nr_, [cell = m.retained_grad_](const Tensor& g) {
        *cell = cell->defined() ? *cell + g : g.clone();
        return Tensor();
      });
}

// A view whose storage changed version since its grad_fn was set gets a grad_fn that reads its
// region of the base's (possibly rebased) history.
static void refresh_view_grad_fn(const Tensor& t, AutogradMeta& m) {
  if (!m.is_view_ || m.view_version_ == t._version()) return;
  Tensor base(t.unsafeGetTensorImpl()->view_base());
  m.view_version_ = t._version();
  if (!base.defined() || !base.requires_grad()) return;
  auto fn = make_view_of_base_node(base, t);
  fn->set_next_edges({gradient_edge(base)});
  std::shared_ptr<Node> old = std::move(m.grad_fn_);
  m.grad_fn_ = fn;
  m.output_nr_ = fn->add_input_metadata(t);
  move_retains_grad_hook(m, old);
}

Edge gradient_edge(const Tensor& t) {
  if (BRASA_UNLIKELY(t.unsafeGetTensorImpl()->creation_meta() != CreationMeta::DEFAULT))
    check_view_not_rebased(t);
  AutogradMeta* m = get_meta(t);
  if (!m) return Edge();
  refresh_view_grad_fn(t, *m);
  if (m->grad_fn_) return Edge(m->grad_fn_, m->output_nr_);
  if (m->requires_grad_) return Edge(grad_accumulator(t), 0);
  return Edge();
}

edge_list collect_next_edges(std::initializer_list<const Tensor*> ts) {
  edge_list edges;
  edges.reserve(ts.size());
  for (const Tensor* t : ts) edges.push_back(t->defined() ? gradient_edge(*t) : Edge());
  return edges;
}

edge_list collect_next_edges(ArrayRef<Tensor> ts) {
  edge_list edges;
  edges.reserve(ts.size());
  for (const Tensor& t : ts) edges.push_back(t.defined() ? gradient_edge(t) : Edge());
  return edges;
}

void set_history(const Tensor& t, const std::shared_ptr<Node>& fn) {
  AutogradMeta& m = materialize_meta(t);
  std::shared_ptr<Node> old = std::move(m.grad_fn_);
  m.grad_fn_ = fn;
  m.output_nr_ = fn->add_input_metadata(t);
  move_retains_grad_hook(m, old);
  TensorImpl* impl = t.unsafeGetTensorImpl();
  impl->add_key(DispatchKey::Autograd);
  if (impl->view_base()) {
    m.is_view_ = true;
    m.view_version_ = t._version();
  }
}

void rebase_history(const Tensor& t, const std::shared_ptr<Node>& fn) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  if (!impl->view_base()) {
    set_history(t, fn);
    return;
  }
  Tensor base(impl->view_base());
  auto copy_slices = make_copy_slices_node(base, t, fn);
  edge_list edges = fn->next_edges();
  edges[0] = gradient_edge(base);
  fn->set_next_edge(0, edges[0]);
  copy_slices->set_next_edges(std::move(edges));
  fn->add_input_metadata(t);
  AutogradMeta& bm = materialize_meta(base);
  std::shared_ptr<Node> base_old = std::move(bm.grad_fn_);
  bm.grad_fn_ = copy_slices;
  bm.output_nr_ = copy_slices->add_input_metadata(base);
  move_retains_grad_hook(bm, base_old);
  base.unsafeGetTensorImpl()->add_key(DispatchKey::Autograd);
  AutogradMeta& m = materialize_meta(t);
  m.is_view_ = true;
  // Forces refresh_view_grad_fn to replace grad_fn_ (which moves a retains_grad hook along).
  m.view_version_ = t._version() - 1;
  impl->add_key(DispatchKey::Autograd);
  refresh_view_grad_fn(t, m);
}

void check_inplace(const Tensor& t, const char* op) {
  check_inplace_named(t, op, InplaceOpName::kOfDispatchedOp);
}

void check_inplace_named(const Tensor& t, const char* op, InplaceOpName naming) {
  if (!GradMode::is_enabled()) return;
  if (const char* name = inplace_name_override()) {  // Note [In-place op names]
    op = name;
    naming = InplaceOpName::kAsGiven;
  }
  // An inference tensor's own error comes first, as libtorch's (whatever its requires_grad).
  if (t.is_inference()) t.unsafeGetTensorImpl()->check_inference_write();
  CreationMeta kind = creation_meta(t);
  if (kind != CreationMeta::DEFAULT) throw_view_write(t, kind, op, naming);
  AutogradMeta* m = get_meta(t);
  if (m && m->requires_grad_ && !m->grad_fn_ && !m->is_view_) {
    BRASA_THROW(ValueError, inplace_op_name(op, naming),
                ": a leaf Variable that requires grad is being used in an in-place operation");
  }
  if (TensorImpl* base = t.unsafeGetTensorImpl()->view_base().get()) {
    auto* bm = static_cast<AutogradMeta*>(base->autograd_meta());
    if (bm && bm->requires_grad_ && !bm->grad_fn_) {
      BRASA_THROW(ValueError, inplace_op_name(op, naming),
                  ": a view of a leaf Variable that requires grad is being used in an in-place "
                  "operation");
    }
  }
}

Tensor shallow_alias(const Tensor& t) {
  TensorImpl* src = t.unsafeGetTensorImpl();
  auto impl = make_intrusive<TensorImpl>(src->storage(), src->dtype(), src->device());
  impl->set_sizes_and_strides(src->sizes(), src->strides(), src->storage_offset());
  impl->set_wrapped_number(src->is_wrapped_number());
  impl->set_inference(src->is_inference());
  return Tensor(std::move(impl));
}

}  // namespace brasa::autograd
