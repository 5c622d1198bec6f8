// Adam and AdamW options/state: equality and the state-dict mapping (PyTorch's key names).
#include "brasa/optim/adam.h"
#include "brasa/optim/adamw.h"

namespace brasa::optim {
namespace {

template <typename O>
void save_adam_options(const O& o, StateEntry& e) {
  e.scalars["lr"] = o.lr();
  e.scalars["beta1"] = std::get<0>(o.betas());
  e.scalars["beta2"] = std::get<1>(o.betas());
  e.scalars["eps"] = o.eps();
  e.scalars["weight_decay"] = o.weight_decay();
  e.scalars["amsgrad"] = o.amsgrad();
  e.scalars["maximize"] = o.maximize();
}

template <typename O>
void load_adam_options(O& o, const StateEntry& e) {
  o.lr(e.scalars.at("lr"));
  o.betas(std::make_tuple(e.scalars.at("beta1"), e.scalars.at("beta2")));
  o.eps(e.scalars.at("eps"));
  o.weight_decay(e.scalars.at("weight_decay"));
  o.amsgrad(e.scalars.at("amsgrad") != 0);
  o.maximize(e.scalars.at("maximize") != 0);
}

template <typename S>
void save_adam_state(const S& s, StateEntry& e) {
  e.scalars["step"] = static_cast<double>(s.step());
  e.tensors["exp_avg"] = s.exp_avg();
  e.tensors["exp_avg_sq"] = s.exp_avg_sq();
  if (s.max_exp_avg_sq().defined()) e.tensors["max_exp_avg_sq"] = s.max_exp_avg_sq();
}

template <typename S>
void load_adam_state(S& s, const StateEntry& e) {
  s.step(static_cast<int64_t>(e.scalars.at("step")));
  s.exp_avg(e.tensors.at("exp_avg"));
  s.exp_avg_sq(e.tensors.at("exp_avg_sq"));
  auto it = e.tensors.find("max_exp_avg_sq");
  s.max_exp_avg_sq(it != e.tensors.end() ? it->second : Tensor());
}

template <typename O>
bool same_adam_options(const O& a, const O& b) {
  return a.lr() == b.lr() && a.betas() == b.betas() && a.eps() == b.eps() &&
         a.weight_decay() == b.weight_decay() && a.amsgrad() == b.amsgrad() &&
         a.maximize() == b.maximize();
}

}  // namespace

void AdamOptions::save(StateEntry& e) const { save_adam_options(*this, e); }
void AdamOptions::load(const StateEntry& e) { load_adam_options(*this, e); }
bool operator==(const AdamOptions& a, const AdamOptions& b) { return same_adam_options(a, b); }
void AdamParamState::save(StateEntry& e) const { save_adam_state(*this, e); }
void AdamParamState::load(const StateEntry& e) { load_adam_state(*this, e); }

void AdamWOptions::save(StateEntry& e) const { save_adam_options(*this, e); }
void AdamWOptions::load(const StateEntry& e) { load_adam_options(*this, e); }
bool operator==(const AdamWOptions& a, const AdamWOptions& b) { return same_adam_options(a, b); }
void AdamWParamState::save(StateEntry& e) const { save_adam_state(*this, e); }
void AdamWParamState::load(const StateEntry& e) { load_adam_state(*this, e); }

}  // namespace brasa::optim
