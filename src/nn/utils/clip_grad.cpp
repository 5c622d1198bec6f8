// Gradient clipping over all parameters' gradients together.

#include "brasa/nn/utils/clip_grad.h"

#include <cmath>
#include <limits>

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/error.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/view.h"

namespace brasa::nn::utils {

double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm, double norm_type,
                       bool error_if_nonfinite) {
  NoGradGuard no_grad;
  std::vector<Tensor> grads;
  for (const auto& p : parameters)
    if (p.defined() && p.grad().defined()) grads.push_back(p.grad());
  if (grads.empty()) return 0.0;
  double total = 0;
  if (std::isinf(norm_type)) {
    // A NaN anywhere makes the total NaN (std::max would drop it), as torch.max does.
    std::vector<Tensor> maxima;
    maxima.reserve(grads.size());
    for (const auto& g : grads) maxima.push_back(g.abs().max().to(kDouble));
    total = stack(maxima).max().item<double>();
  } else {
    std::vector<Tensor> norms;
    norms.reserve(grads.size());
    for (const auto& g : grads) norms.push_back(g.norm(norm_type).to(kDouble));
    total = stack(norms).norm(norm_type).item<double>();
  }
  BRASA_CHECK(!error_if_nonfinite || std::isfinite(total),
              "clip_grad_norm_: the total norm of "
              "order ",
              norm_type, " for gradients from `parameters` is non-finite (", total,
              "), so it cannot be clipped. Pass error_if_nonfinite=false to clip anyway");
  // libtorch scales by min(coef, 1), so a NaN total (with error_if_nonfinite off) spreads.
  const double coef = max_norm / (total + 1e-6);
  if (!(coef >= 1))
    for (auto& g : grads) g.mul_(coef);
  return total;
}

double clip_grad_norm_(std::initializer_list<Tensor> parameters, double max_norm, double norm_type,
                       bool error_if_nonfinite) {
  return clip_grad_norm_(std::vector<Tensor>(parameters), max_norm, norm_type, error_if_nonfinite);
}

double clip_grad_norm_(const Tensor& parameter, double max_norm, double norm_type,
                       bool error_if_nonfinite) {
  return clip_grad_norm_(std::vector<Tensor>{parameter}, max_norm, norm_type, error_if_nonfinite);
}

void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value) {
  NoGradGuard no_grad;
  for (const auto& p : parameters)
    if (p.defined() && p.grad().defined()) p.grad().clamp_(-clip_value, clip_value);
}

void clip_grad_value_(std::initializer_list<Tensor> parameters, double clip_value) {
  clip_grad_value_(std::vector<Tensor>(parameters), clip_value);
}

void clip_grad_value_(const Tensor& parameter, double clip_value) {
  clip_grad_value_(std::vector<Tensor>{parameter}, clip_value);
}

}  // namespace brasa::nn::utils
