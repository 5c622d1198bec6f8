// at::ctc_loss: the forward (alpha) recursion per sample in double precision on the host (inputs
// of another device are copied there, results copied back), and the gradient with respect to
// log_probs from the alpha and beta recursions.
//
// Note [CTC gradient]
// PyTorch's CTC backward does not differentiate -log p through log_probs as free variables: it
// assumes they are log_softmax outputs and returns exp(lp) - exp(log_alpha_beta(c) + nll - lp),
// the gradient with respect to the logits behind them, for t < input_length (0 after). brasa
// returns the same, so that `ctc_loss(log_softmax(x))` and its gradients match libtorch's;
// with zero_infinity a sample whose loss is inf gets 0 (and a gradient of 0).

#include "brasa/nn/ctc_loss_functions.h"

#include <cmath>
#include <limits>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/tensor_data.h"
#include "nn/functional/fused_derivative.h"

namespace brasa {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::abs(a - b)));
}

/// One sample: its log-probabilities lp[t * C + c] (t < T), extended target (blanks between and
/// around the labels) and the alpha or beta table [T, S].
struct Sample {
  const double* lp;
  int64_t time, classes;
  std::vector<int64_t> ext;

  double at(int64_t t, int64_t s) const { return lp[t * classes + ext[static_cast<size_t>(s)]]; }
  /// May s take the skip from s -/+ 2 (a label different from the one two places away)?
  bool skip(int64_t s, int64_t other) const {
    return other >= 0 && other < static_cast<int64_t>(ext.size()) &&
           ext[static_cast<size_t>(s)] != ext[static_cast<size_t>(other)];
  }

  std::vector<double> alpha() const {
    const auto n = static_cast<int64_t>(ext.size());
    std::vector<double> a(static_cast<size_t>(time * n), kNegInf);
    for (int64_t s = 0; s < std::min<int64_t>(n, 2); ++s) a[static_cast<size_t>(s)] = at(0, s);
    for (int64_t t = 1; t < time; ++t) {
      for (int64_t s = 0; s < n; ++s) {
        const double* prev = &a[static_cast<size_t>((t - 1) * n)];
        double v = prev[s];
        if (s >= 1) v = log_add(v, prev[s - 1]);
        if (s >= 2 && skip(s, s - 2)) v = log_add(v, prev[s - 2]);
        a[static_cast<size_t>(t * n + s)] = v == kNegInf ? kNegInf : v + at(t, s);
      }
    }
    return a;
  }

  std::vector<double> beta() const {
    const auto n = static_cast<int64_t>(ext.size());
    std::vector<double> b(static_cast<size_t>(time * n), kNegInf);
    for (int64_t s = std::max<int64_t>(n - 2, 0); s < n; ++s)
      b[static_cast<size_t>((time - 1) * n + s)] = at(time - 1, s);
    for (int64_t t = time - 2; t >= 0; --t) {
      for (int64_t s = 0; s < n; ++s) {
        const double* next = &b[static_cast<size_t>((t + 1) * n)];
        double v = next[s];
        if (s + 1 < n) v = log_add(v, next[s + 1]);
        if (s + 2 < n && skip(s, s + 2)) v = log_add(v, next[s + 2]);
        b[static_cast<size_t>(t * n + s)] = v == kNegInf ? kNegInf : v + at(t, s);
      }
    }
    return b;
  }

  double nll(const std::vector<double>& a) const {
    if (time == 0) return ext.size() == 1 ? 0.0 : std::numeric_limits<double>::infinity();
    const auto n = static_cast<int64_t>(ext.size());
    double v = a[static_cast<size_t>((time - 1) * n + n - 1)];
    if (n >= 2) v = log_add(v, a[static_cast<size_t>((time - 1) * n + n - 2)]);
    return -v;
  }
};

struct CtcProblem {
  Tensor log_probs;  // [T, N, C] double, contiguous
  std::vector<std::vector<int64_t>> targets;
  std::vector<int64_t> input_lengths;
  int64_t blank;
  bool zero_infinity;

  /// Sample b's [T_b, C] log-probabilities, copied out of the [T, N, C] layout.
  Sample sample(size_t b, std::vector<double>& buffer) const {
    const int64_t n = log_probs.size(1), c = log_probs.size(2), t = input_lengths[b];
    const double* p = log_probs.data_ptr<double>();
    buffer.resize(static_cast<size_t>(t * c));
    for (int64_t i = 0; i < t; ++i)
      for (int64_t k = 0; k < c; ++k)
        buffer[static_cast<size_t>(i * c + k)] = p[(i * n + static_cast<int64_t>(b)) * c + k];
    Sample s{buffer.data(), t, c, {blank}};
    for (int64_t label : targets[b]) {
      s.ext.push_back(label);
      s.ext.push_back(blank);
    }
    return s;
  }

  std::vector<double> forward() const {
    std::vector<double> out, buffer;
    for (size_t b = 0; b < targets.size(); ++b) {
      Sample s = sample(b, buffer);
      double v = s.nll(s.time > 0 ? s.alpha() : std::vector<double>{});
      if (zero_infinity && std::isinf(v)) v = 0;
      out.push_back(v);
    }
    return out;
  }

  /// d(sum_b g[b] * nll_b) / d log_probs as Note [CTC gradient] describes, [T, N, C] double.
  std::vector<double> backward(const std::vector<double>& g) const {
    const int64_t t_max = log_probs.size(0), n = log_probs.size(1), c = log_probs.size(2);
    std::vector<double> grad(static_cast<size_t>(t_max * n * c), 0.0), buffer;
    for (size_t b = 0; b < targets.size(); ++b) {
      Sample s = sample(b, buffer);
      if (s.time == 0) continue;
      std::vector<double> a = s.alpha(), be = s.beta();
      const double nll = s.nll(a);
      if (zero_infinity && std::isinf(nll)) continue;
      const auto len = static_cast<int64_t>(s.ext.size());
      std::vector<double> lcab(static_cast<size_t>(c));
      for (int64_t t = 0; t < s.time; ++t) {
        std::fill(lcab.begin(), lcab.end(), kNegInf);
        for (int64_t k = 0; k < len; ++k) {
          double& slot = lcab[static_cast<size_t>(s.ext[static_cast<size_t>(k)])];
          slot = log_add(
              slot, a[static_cast<size_t>(t * len + k)] + be[static_cast<size_t>(t * len + k)]);
        }
        for (int64_t k = 0; k < c; ++k) {
          const double lp = s.lp[t * c + k];
          grad[static_cast<size_t>((t * n + static_cast<int64_t>(b)) * c + k)] =
              (std::exp(lp) - std::exp(lcab[static_cast<size_t>(k)] + nll - lp)) * g[b];
        }
      }
    }
    return grad;
  }
};

std::vector<double> to_doubles(const Tensor& t) {
  Tensor d = t.detach().to(Device(kCPU)).to(kDouble).contiguous();
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

/// Checks the arguments and gathers each sample's target labels.
CtcProblem problem(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                   IntArrayRef target_lengths, int64_t blank, bool zero_infinity) {
  const char* op = "ctc_loss";
  BRASA_CHECK_TYPE(is_floating_type(log_probs.scalar_type()), op,
                   ": expected floating log_probs, got ", log_probs.scalar_type());
  BRASA_CHECK_TYPE(is_integral_type(targets.scalar_type(), false), op,
                   ": expected integral targets, got ", targets.scalar_type());
  BRASA_CHECK(log_probs.dim() == 3, op, ": expected log_probs [T, N, C], got ", log_probs.sizes());
  const int64_t t_max = log_probs.size(0), n = log_probs.size(1), c = log_probs.size(2);
  BRASA_CHECK_INDEX(blank >= 0 && blank < c, op, ": blank must be in label range [0, ", c,
                    "), got ", blank);
  BRASA_CHECK(static_cast<int64_t>(input_lengths.size()) == n, op,
              ": input_lengths must be of size batch_size ", n, ", got ", input_lengths.size());
  BRASA_CHECK(static_cast<int64_t>(target_lengths.size()) == n, op,
              ": target_lengths must be of size batch_size ", n, ", got ", target_lengths.size());
  CtcProblem p{Tensor(),
               {},
               std::vector<int64_t>(input_lengths.begin(), input_lengths.end()),
               blank,
               zero_infinity};
  int64_t total = 0, longest = 0;
  for (int64_t b = 0; b < n; ++b) {
    const int64_t il = input_lengths[static_cast<size_t>(b)];
    const int64_t tl = target_lengths[static_cast<size_t>(b)];
    BRASA_CHECK(il >= 0 && il <= t_max, op, ": expected input_lengths in [0, ", t_max,
                "] for log_probs ", log_probs.sizes(), ", got ", il, " for sample ", b);
    BRASA_CHECK(tl >= 0, op, ": expected non-negative target_lengths, got ", tl);
    total += tl;
    longest = std::max(longest, tl);
  }
  Tensor flat = targets.to(Device(kCPU)).to(kLong).contiguous();
  const int64_t* tp = flat.data_ptr<int64_t>();
  if (targets.dim() == 1) {
    BRASA_CHECK(targets.size(0) >= total, op, ": expected concatenated targets of at least ", total,
                " labels (the sum of target_lengths), got ", targets.sizes());
  } else {
    BRASA_CHECK(targets.dim() == 2 && targets.size(0) == n && targets.size(1) >= longest, op,
                ": expected targets [", n, ", S >= ", longest, "] or 1-D, got ", targets.sizes(),
                " (Expected tensor to have size at least ", longest, " at dimension 1)");
  }
  for (int64_t b = 0, offset = 0; b < n; ++b) {
    const int64_t tl = target_lengths[static_cast<size_t>(b)];
    const int64_t start = targets.dim() == 1 ? offset : b * targets.size(1);
    std::vector<int64_t> labels(tp + start, tp + start + tl);
    for (int64_t label : labels)
      BRASA_CHECK_INDEX(label >= 0 && label < c && label != blank, op, ": target label ", label,
                        " of sample ", b, " is not a class in [0, ", c, ") other than blank ",
                        blank);
    offset += tl;
    p.targets.push_back(std::move(labels));
  }
  p.log_probs = log_probs.detach().to(Device(kCPU)).to(kDouble).contiguous();
  return p;
}

}  // namespace

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                IntArrayRef target_lengths, int64_t blank, int64_t reduction, bool zero_infinity) {
  BRASA_CHECK(log_probs.defined() && targets.defined(),
              "ctc_loss: got undefined log_probs or targets");
  BRASA_CHECK(log_probs.dim() == 2 || log_probs.dim() == 3,
              "ctc_loss: expected log_probs [T, N, C] or [T, C], got ", log_probs.sizes());
  BRASA_CHECK(reduction >= Reduction::None && reduction <= Reduction::Sum,
              "ctc_loss: expected reduction at::Reduction::None (0), Mean (1) or Sum (2), got ",
              reduction);
  const bool batched = log_probs.dim() == 3;
  Tensor lp = batched ? log_probs : log_probs.unsqueeze(1);
  Tensor tg = batched || targets.dim() != 1 ? targets : targets.unsqueeze(0);
  CtcProblem p = problem(lp, tg, input_lengths, target_lengths, blank, zero_infinity);
  Tensor res = nn::functional::detail::with_derivative(
      "CtcLossBackward", "ctc_loss", lp,
      [&p](const Tensor& x) {
        std::vector<double> v = p.forward();
        return detail::tensor_from_array(v.data(), static_cast<int64_t>(v.size()), kDouble)
            .to(x.device())
            .to(x.scalar_type());
      },
      [p](const Tensor& g, const Tensor& x, const Tensor&) {
        std::vector<double> grad = p.backward(to_doubles(g));
        return detail::tensor_from_array(grad.data(), static_cast<int64_t>(grad.size()), kDouble)
            .reshape(x.sizes())
            .to(x.device())
            .to(x.scalar_type());
      });
  if (!batched) res = res.squeeze(0);
  if (reduction == Reduction::Sum) return res.sum();
  if (reduction == Reduction::Mean) {
    std::vector<double> lengths(target_lengths.begin(), target_lengths.end());
    Tensor divisor =
        detail::tensor_from_array(lengths.data(), static_cast<int64_t>(lengths.size()), kDouble)
            .to(res.device())
            .to(res.scalar_type())
            .clamp_min(1);
    return (res / (batched ? divisor : divisor.squeeze(0))).mean();
  }
  return res;
}

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank, int64_t reduction,
                bool zero_infinity) {
  BRASA_CHECK(input_lengths.defined() && target_lengths.defined(),
              "ctc_loss: got undefined input_lengths or target_lengths");
  BRASA_CHECK_TYPE(is_integral_type(input_lengths.scalar_type(), false),
                   "ctc_loss: input_lengths must be integral, got ", input_lengths.scalar_type());
  BRASA_CHECK_TYPE(is_integral_type(target_lengths.scalar_type(), false),
                   "ctc_loss: target_lengths must be integral, got ", target_lengths.scalar_type());
  Tensor il = input_lengths.to(Device(kCPU)).to(kLong).contiguous().reshape({-1});
  Tensor tl = target_lengths.to(Device(kCPU)).to(kLong).contiguous().reshape({-1});
  std::vector<int64_t> ils(il.data_ptr<int64_t>(), il.data_ptr<int64_t>() + il.numel());
  std::vector<int64_t> tls(tl.data_ptr<int64_t>(), tl.data_ptr<int64_t>() + tl.numel());
  return ctc_loss(log_probs, targets, ils, tls, blank, reduction, zero_infinity);
}

}  // namespace brasa
