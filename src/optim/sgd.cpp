// SGD: momentum/dampening/nesterov/weight decay/maximize, in place under NoGradGuard.
#include "brasa/optim/sgd.h"

#include "backends/cpu/kernels/optim_kernels.h"
#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "optim/closure.h"
#include "optim/fused_ops.h"

namespace brasa::optim {

SGDOptions::SGDOptions(double lr) : lr_(lr) {}

void SGDOptions::save(StateEntry& e) const {
  e.scalars["lr"] = lr();
  e.scalars["momentum"] = momentum();
  e.scalars["dampening"] = dampening();
  e.scalars["weight_decay"] = weight_decay();
  e.scalars["nesterov"] = nesterov();
  e.scalars["maximize"] = maximize();
}

void SGDOptions::load(const StateEntry& e) {
  lr(e.scalars.at("lr"));
  momentum(e.scalars.at("momentum"));
  dampening(e.scalars.at("dampening"));
  weight_decay(e.scalars.at("weight_decay"));
  nesterov(e.scalars.at("nesterov") != 0);
  maximize(e.scalars.at("maximize") != 0);
}

bool operator==(const SGDOptions& a, const SGDOptions& b) {
  return a.lr() == b.lr() && a.momentum() == b.momentum() && a.dampening() == b.dampening() &&
         a.weight_decay() == b.weight_decay() && a.nesterov() == b.nesterov() &&
         a.maximize() == b.maximize();
}

void SGDParamState::save(StateEntry& e) const {
  if (momentum_buffer().defined()) e.tensors["momentum_buffer"] = momentum_buffer();
}

void SGDParamState::load(const StateEntry& e) {
  auto it = e.tensors.find("momentum_buffer");
  momentum_buffer(it != e.tensors.end() ? it->second : Tensor());
}

namespace detail {
BRASA_DEFINE_STUB(fused_sgd_stub, FusedSgdKernel);
BRASA_DEFINE_OP(fused_sgd_op)
}  // namespace detail

namespace {

void fused_sgd_cpu(const Tensor& p, const Tensor& grad, const Tensor& buf, double lr,
                   double momentum, double dampening, double weight_decay, bool nesterov,
                   bool maximize) {
  detail::SgdStepArgs a;
  a.param = p.data_ptr();
  a.grad = grad.const_data_ptr();
  a.momentum_buffer = buf.data_ptr();
  a.numel = p.numel();
  a.dtype = p.scalar_type();
  a.lr = lr;
  a.momentum = momentum;
  a.dampening = dampening;
  a.weight_decay = weight_decay;
  a.nesterov = nesterov;
  a.maximize = maximize;
  detail::fused_sgd_stub(a);
}
BRASA_REGISTER_KERNEL(detail::fused_sgd_op, fused_sgd_cpu, CPU)

// One pass when the parameter, gradient and existing buffer are contiguous float/double.
bool fused_sgd_step(const Tensor& p, const Tensor& grad, const Tensor& buf, const SGDOptions& o) {
  const ScalarType dtype = p.scalar_type();
  auto ok = [&](const Tensor& t) {
    return t.is_contiguous() && t.scalar_type() == dtype && t.device() == p.device() &&
           !t.is_meta() && t.sizes() == p.sizes();
  };
  if ((dtype != kFloat && dtype != kDouble) || !ok(p) || !ok(grad) || !ok(buf)) return false;
  detail::fused_sgd_op().call(p, grad, buf, o.lr(), o.momentum(), o.dampening(), o.weight_decay(),
                              o.nesterov(), o.maximize());
  return true;
}

void check_sgd(const SGDOptions& o) {
  BRASA_CHECK(o.lr() >= 0, "SGD: invalid learning rate: ", o.lr());
  BRASA_CHECK(o.momentum() >= 0, "SGD: invalid momentum value: ", o.momentum());
  BRASA_CHECK(o.weight_decay() >= 0, "SGD: invalid weight_decay value: ", o.weight_decay());
  BRASA_CHECK(!o.nesterov() || (o.momentum() > 0 && o.dampening() == 0),
              "SGD: Nesterov momentum requires a momentum and zero dampening");
}

}  // namespace

SGD::SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults)
    : Optimizer(std::move(param_groups), std::make_unique<SGDOptions>(defaults)) {
  check_sgd(defaults);
}

SGD::SGD(std::vector<Tensor> params, SGDOptions defaults)
    : SGD(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, defaults) {}

Tensor SGD::step(LossClosure closure) {
  Tensor loss = detail::run_closure(closure);
  NoGradGuard no_grad;
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const SGDOptions&>(group.options());
    for (const auto& p : group.params()) {
      const Tensor& grad = p.grad();
      if (!grad.defined()) continue;
      SGDParamState* s = nullptr;
      if (o.momentum() != 0) {
        auto& slot = state_[param_key(p)];
        if (!slot) slot = std::make_unique<SGDParamState>();
        s = static_cast<SGDParamState*>(slot.get());
        if (s->momentum_buffer().defined() && fused_sgd_step(p, grad, s->momentum_buffer(), o)) {
          continue;
        }
      }
      Tensor d_p = o.maximize() ? grad.neg() : grad;
      if (o.weight_decay() != 0) d_p = d_p.add(p, o.weight_decay());
      if (s != nullptr) {
        if (!s->momentum_buffer().defined()) {
          s->momentum_buffer(d_p.clone());
        } else {
          s->momentum_buffer().mul_(o.momentum()).add_(d_p, 1 - o.dampening());
        }
        d_p = o.nesterov() ? d_p.add(s->momentum_buffer(), o.momentum()) : s->momentum_buffer();
      }
      p.add_(d_p, -o.lr());
    }
  }
  return loss;
}

// Note [Optimizer instantiations]
template class OptimizerCloneableOptions<SGDOptions>;
template class OptimizerCloneableParamState<SGDParamState>;

std::vector<LegacyField> SGD::legacy_fields() const {
  return {{"momentum_buffers", "momentum_buffer", LegacyField::kPerParam}};
}

std::unique_ptr<OptimizerParamState> SGD::make_param_state() const {
  return std::make_unique<SGDParamState>();
}

}  // namespace brasa::optim
