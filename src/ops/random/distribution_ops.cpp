// poisson, binomial and normal_functional as dispatched ops (random_ops.h), and their free
// functions (brasa/ops/sampling.h).
//
// Note [Rejection samplers]
// poisson and binomial draw a varying number of uniforms per element, so each element has a stream
// of its own: the call reserves one Philox block per element (reserve_philox; an MT19937
// generator keys the range with one 64-bit draw of its engine, Note [Generator kinds]) and element
// i reads blocks Philox4x32(seed, offset + i, j) for j = 0, 1, ... (no other fill uses a block with
// j >= 1), two 32-bit words per 53-bit uniform. Results depend on the seed only, not on the thread
// count; they are not libtorch's numbers (its samplers read its engine serially).
// poisson(rate): the product of uniforms until it falls below e^-rate (rate < 10), else Hormann's
// transformed rejection with squeeze, PTRS (W. Hormann, "The transformed rejection method for
// generating Poisson random variables", 1993). binomial(n, p): B(n, p) = n - B(n, 1 - p) reduces p
// to <= 1/2; then inversion by sequential search (n p < 10), else Hormann's BTRS ("The generation
// of binomial random variates", 1993).
#include <cmath>
#include <cstdint>
#include <optional>

#include "backends/cpu/kernels/random_kernels.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/parallel.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/sampling.h"
#include "brasa/ops/shaping.h"
#include "ops/random/random_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(poisson_op)
BRASA_DEFINE_OP(binomial_op)
BRASA_DEFINE_OP(normal_functional_op)

namespace {

// Element `element`'s uniforms in [0, 1) (Note [Rejection samplers]).
class ElementStream {
 public:
  ElementStream(const PhiloxRange& r, uint64_t element)
      : seed_(r.seed), counter_(r.offset + element) {}
  double operator()() {
    if (used_ == 4) {
      Philox4x32 b(seed_, counter_, block_++);
      for (int i = 0; i < 4; ++i) w_[i] = b.out[i];
      used_ = 0;
    }
    const uint64_t hi = w_[used_] >> 5, lo = w_[used_ + 1] >> 6;  // 27 + 26 bits
    used_ += 2;
    return double(hi * 67108864 + lo) * (1.0 / 9007199254740992.0);
  }

 private:
  uint64_t seed_, counter_, block_ = 0;
  uint32_t w_[4] = {};
  int used_ = 4;
};

double sample_poisson(double rate, ElementStream& u) {
  if (rate == 0) return 0;
  if (rate < 10) {
    const double limit = std::exp(-rate);
    double product = u();
    double k = 0;
    while (product > limit) {
      product *= u();
      ++k;
    }
    return k;
  }
  const double sqrt_rate = std::sqrt(rate), log_rate = std::log(rate);
  const double b = 0.931 + 2.53 * sqrt_rate, a = -0.059 + 0.02483 * b;
  const double log_inv_alpha = std::log(1.1239 + 1.1328 / (b - 3.4));
  const double v_r = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const double U = u() - 0.5, V = u(), us = 0.5 - std::fabs(U);
    if (us == 0) continue;
    const double k = std::floor((2 * a / us + b) * U + rate + 0.43);
    if (us >= 0.07 && V <= v_r) return k;
    if (k < 0 || (us < 0.013 && V > us)) continue;
    if (std::log(V) + log_inv_alpha - std::log(a / (us * us) + b) <=
        -rate + k * log_rate - std::lgamma(k + 1))
      return k;
  }
}

// B(n, p) for p <= 1/2.
double sample_binomial_low(double n, double p, ElementStream& u) {
  const double q = 1 - p;
  if (n * p < 10) {
    const double s = p / q, first = std::exp(n * std::log1p(-p));
    for (;;) {
      double left = u(), r = first, k = 0;
      while (left > r && k < n) {
        left -= r;
        ++k;
        r *= (n + 1 - k) / k * s;
      }
      if (left <= r) return k;  // else rounding ran past n: draw again
    }
  }
  const double spq = std::sqrt(n * p * q);
  const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p, c = n * p + 0.5;
  const double v_r = 0.92 - 4.2 / b, alpha = (2.83 + 5.1 / b) * spq, log_pq = std::log(p / q);
  const double m = std::floor((n + 1) * p), h = std::lgamma(m + 1) + std::lgamma(n - m + 1);
  for (;;) {
    const double U = u() - 0.5, V = u(), us = 0.5 - std::fabs(U);
    if (us == 0) continue;
    const double k = std::floor((2 * a / us + b) * U + c);
    if (k < 0 || k > n) continue;
    if (us >= 0.07 && V <= v_r) return k;
    if (std::log(V * alpha / (a / (us * us) + b)) <=
        h - std::lgamma(k + 1) - std::lgamma(n - k + 1) + (k - m) * log_pq)
      return k;
  }
}
double sample_binomial(double n, double p, ElementStream& u) {
  if (n == 0 || p == 0) return 0;
  if (p == 1) return n;
  return p <= 0.5 ? sample_binomial_low(n, p, u) : n - sample_binomial_low(n, 1 - p, u);
}

// Runs draw(i, stream) for the n elements of a contiguous double result.
template <typename F>
void draw_elements(double* out, int64_t n, const std::optional<Generator>& gen, const F& draw) {
  if (n == 0) return;
  const PhiloxRange r = reserve_philox(gen, uint64_t(n));
  parallel_for(0, n, 256, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      ElementStream u(r, uint64_t(i));
      out[i] = draw(i, u);
    }
  });
}

void check_floating(const char* op, const char* what, const Tensor& t) {
  BRASA_CHECK(t.defined(), op, ": got an undefined ", what);
  BRASA_CHECK_TYPE(t.is_floating_point(), op, ": not implemented for ", what, " of dtype ",
                   t.scalar_type(), " (floating dtypes only)");
}

Tensor poisson_meta(const Tensor& self, std::optional<Generator>) {
  check_floating("poisson", "rates", self);
  return detail::empty_generic(self.sizes(), self.scalar_type(), self.device());
}
Tensor poisson_kernel(const Tensor& self, std::optional<Generator> gen) {
  Tensor result = poisson_meta(self, gen);
  if (result.numel() == 0) return result;
  Tensor rates = self.to(kDouble).contiguous();
  const double* rate = rates.data_ptr<double>();
  for (int64_t i = 0; i < rates.numel(); ++i) {
    BRASA_CHECK(rate[i] >= 0 && std::isfinite(rate[i]),
                "poisson: invalid Poisson rate, expected rate to be non-negative and finite, got ",
                rate[i]);
  }
  Tensor out = detail::empty_generic(self.sizes(), kDouble, self.device());
  draw_elements(out.data_ptr<double>(), out.numel(), gen,
                [rate](int64_t i, ElementStream& u) { return sample_poisson(rate[i], u); });
  result.copy_(out);
  return result;
}

Tensor binomial_meta(const Tensor& count, const Tensor& prob, std::optional<Generator>) {
  check_floating("binomial", "count", count);
  check_floating("binomial", "prob", prob);
  BRASA_CHECK_TYPE(count.scalar_type() == prob.scalar_type(),
                   "binomial: count and prob must have the same dtype, got ", count.scalar_type(),
                   " and ", prob.scalar_type());
  const std::vector<Tensor> both = broadcast_tensors({count, prob});
  return detail::empty_generic(both[0].sizes(), count.scalar_type(), count.device());
}
Tensor binomial_kernel(const Tensor& count, const Tensor& prob, std::optional<Generator> gen) {
  Tensor result = binomial_meta(count, prob, gen);
  if (result.numel() == 0) return result;
  Tensor n = count.to(kDouble).expand(result.sizes()).contiguous();
  Tensor p = prob.to(kDouble).expand(result.sizes()).contiguous();
  const double *nd = n.data_ptr<double>(), *pd = p.data_ptr<double>();
  for (int64_t i = 0; i < n.numel(); ++i) {
    BRASA_CHECK(nd[i] >= 0 && std::isfinite(nd[i]) && nd[i] == std::floor(nd[i]),
                "binomial: expected count to hold non-negative integers, got ", nd[i]);
    BRASA_CHECK(pd[i] >= 0 && pd[i] <= 1, "binomial: expected prob in [0, 1], got ", pd[i]);
  }
  Tensor out = detail::empty_generic(result.sizes(), kDouble, result.device());
  draw_elements(out.data_ptr<double>(), out.numel(), gen,
                [nd, pd](int64_t i, ElementStream& u) { return sample_binomial(nd[i], pd[i], u); });
  result.copy_(out);
  return result;
}

// A new tensor like self (its strides kept, as a clone) filled by normal_.
Tensor normal_functional_meta(const Tensor& self, double, double std, std::optional<Generator>) {
  BRASA_CHECK(self.defined(), "normal_functional: got an undefined tensor");
  BRASA_CHECK_TYPE(self.is_floating_point(), "normal_functional: not implemented for dtype ",
                   self.scalar_type());
  BRASA_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  return empty_like(self);
}
Tensor normal_functional_kernel(const Tensor& self, double mean, double std,
                                std::optional<Generator> gen) {
  Tensor result = normal_functional_meta(self, mean, std, gen);
  return normal_op().call(result, mean, std, gen);
}

}  // namespace

BRASA_REGISTER_KERNEL(poisson_op, poisson_kernel, CPU)
BRASA_REGISTER_KERNEL(poisson_op, poisson_meta, Meta)
BRASA_REGISTER_KERNEL(binomial_op, binomial_kernel, CPU)
BRASA_REGISTER_KERNEL(binomial_op, binomial_meta, Meta)
BRASA_REGISTER_KERNEL(normal_functional_op, normal_functional_kernel, CPU)
BRASA_REGISTER_KERNEL(normal_functional_op, normal_functional_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

Tensor poisson(const Tensor& self, std::optional<Generator> generator) {
  return ops::poisson_op().call(self, generator);
}
Tensor binomial(const Tensor& count, const Tensor& prob, std::optional<Generator> generator) {
  return ops::binomial_op().call(count, prob, generator);
}
Tensor normal_functional(const Tensor& self, double mean, double std,
                         std::optional<Generator> generator) {
  return ops::normal_functional_op().call(self, mean, std, generator);
}

}  // namespace brasa
