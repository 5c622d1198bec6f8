#include "brasa/autograd/gradcheck.h"

#include <sstream>

#include "brasa/autograd/autograd.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/view.h"

namespace brasa::autograd {
namespace {

// A one-element view of element `k` (row-major index) of t, for perturbing it in place.
Tensor element(const Tensor& t, int64_t k) {
  int64_t offset = t.storage_offset();
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    offset += (k % t.size(d)) * t.stride(d);
    k /= t.size(d);
  }
  return t.detach().as_strided({}, {}, offset);
}

std::vector<Tensor> float_outputs(const variable_list& outs) {
  std::vector<Tensor> r;
  for (const Tensor& o : outs)
    if (o.defined() && o.is_floating_point()) r.push_back(o);
  return r;
}

// Flattened outputs of fn at the current input values, as float64.
std::vector<Tensor> evaluate(const DifferentiableFn& fn, const variable_list& inputs) {
  NoGradGuard no_grad;
  std::vector<Tensor> r;
  for (const Tensor& o : float_outputs(fn(inputs)))
    r.push_back(o.to(kDouble).reshape({-1}).clone());  // may alias an input
  return r;
}

bool report(bool raise, const std::string& what) {
  if (raise) BRASA_THROW(ValueError, "gradcheck: ", what);
  return false;
}

}  // namespace

bool gradcheck(const DifferentiableFn& fn, const variable_list& inputs, double eps, double atol,
               double rtol, bool raise_exception) {
  std::vector<size_t> diff;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].defined() && inputs[i].requires_grad()) diff.push_back(i);
  BRASA_CHECK(!diff.empty(), "gradcheck: no input requires grad");
  std::vector<Tensor> outs = float_outputs(fn(inputs));
  variable_list wrt;
  for (size_t i : diff) wrt.push_back(inputs[i]);
  for (size_t o = 0; o < outs.size(); ++o) {
    const int64_t n_out = outs[o].numel();
    for (size_t w = 0; w < diff.size(); ++w) {
      const Tensor& x = inputs[diff[w]];
      // numeric[j][k] = d out_j / d x_k by central differences
      std::vector<Tensor> numeric_cols;
      for (int64_t k = 0; k < x.numel(); ++k) {
        Tensor e = element(x, k);
        double orig;
        {
          NoGradGuard g;
          orig = e.item<double>();
          e.fill_(orig + eps);
        }
        Tensor plus = evaluate(fn, inputs)[o];
        {
          NoGradGuard g;
          e.fill_(orig - eps);
        }
        Tensor minus = evaluate(fn, inputs)[o];
        {
          NoGradGuard g;
          e.fill_(orig);
        }
        numeric_cols.push_back((plus - minus) / (2 * eps));
      }
      // A fresh graph: the perturbations bumped the versions of inputs saved by the first one.
      outs[o] = float_outputs(fn(inputs))[o];
      for (int64_t j = 0; j < n_out; ++j) {
        Tensor seed = zeros_like(outs[o]).reshape({-1});
        {
          NoGradGuard g;
          seed[j].fill_(1);
        }
        variable_list g = grad({outs[o]}, wrt, {seed.view(outs[o].sizes())}, true, false, true);
        Tensor analytic = g[w].defined() ? g[w].to(kDouble).reshape({-1})
                                         : zeros({x.numel()}, TensorOptions(kDouble));
        for (int64_t k = 0; k < x.numel(); ++k) {
          double a = analytic[k].item<double>();
          double num = numeric_cols[k][j].item<double>();
          if (std::abs(a - num) > atol + rtol * std::abs(num)) {
            std::ostringstream msg;
            msg << "Jacobian mismatch for output " << o << " element " << j << " w.r.t. input "
                << diff[w] << " element " << k << ": numerical " << num << ", analytical " << a;
            return report(raise_exception, msg.str());
          }
        }
      }
    }
  }
  return true;
}

bool gradgradcheck(const DifferentiableFn& fn, const variable_list& inputs,
                   const variable_list& grad_outputs, double eps, double atol, double rtol,
                   bool raise_exception) {
  variable_list gouts = grad_outputs;
  if (gouts.empty()) {
    Generator gen = make_generator(0x5eed);
    for (const Tensor& o : float_outputs(fn(inputs)))
      gouts.push_back(randn(o.sizes(), gen, TensorOptions(o.dtype())).requires_grad_(true));
  }
  std::vector<size_t> diff;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].defined() && inputs[i].requires_grad()) diff.push_back(i);
  const size_t n_in = inputs.size();
  auto first_grads = [&](const variable_list& all) {
    AutoGradMode enable(true);  // also when gradcheck evaluates it under no_grad
    variable_list in(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n_in));
    variable_list go(all.begin() + static_cast<std::ptrdiff_t>(n_in), all.end());
    variable_list wrt;
    for (size_t i : diff) wrt.push_back(in[i]);
    return grad(float_outputs(fn(in)), wrt, go, true, true, true);
  };
  variable_list all = inputs;
  all.insert(all.end(), gouts.begin(), gouts.end());
  return gradcheck(first_grads, all, eps, atol, rtol, raise_exception);
}

}  // namespace brasa::autograd
