// exponential_, geometric_ and multinomial as dispatched ops.
//
// An MT19937 generator draws as libtorch 1.13 does (Note [libtorch CPU sampling]): exponential_
// and geometric_ from 53-bit uniforms in fill order; multinomial without replacement divides the
// weights by exponential(1) draws of self's dtype and takes the top num_samples (argmax for one);
// with replacement (one sample too, in libtorch 1.13), each row's running sums (in self's
// precision, normalised, the last set to 1) are searched for each 53-bit uniform, rows one after
// the other.
//
// Note [Sampling draws]
// Philox generators: like the fills of random_ops.cpp (Note [Random reproducibility]), element i of
// a call uses only the 32-bit word i % 4 of Philox block offset + i / 4, so results never depend on
// the thread count. exponential_: -log(1 - u) / lambda; geometric_: ceil(log(u') / log(1 - p)), u'
// in (0, 1]. multinomial draws a fixed number D of words per row (row r uses elements r * D .. r *
// D + D - 1): with replacement D = num_samples, each sample a binary search of u * total in the
// row's running sums; without replacement D = categories and the samples are the num_samples
// smallest keys -log(u_j) / p_j (an exponential race, equivalent to drawing one by one without
// replacement); zero-probability categories get key +inf and come last, in index order.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "backends/cpu/kernels/random_kernels.h"
#include "backends/cpu/mt_sampling.h"
#include "brasa/core/dispatch_type.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/parallel.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/sampling.h"
#include "ops/random/random_fill.h"
#include "ops/random/random_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(exponential_op)
BRASA_DEFINE_OP(geometric_op)
BRASA_DEFINE_OP(multinomial_op)

namespace {

// Word i of the range as a double in [0, 1).
inline double unit(const PhiloxRange& r, uint64_t i) {
  Philox4x32 b(r.seed, r.offset + i / 4);
  return double(b.out[i % 4]) * (1.0 / 4294967296.0);
}

// Fills self (row-major order) with f(u_i), u_i in [0, 1), through a contiguous double buffer.
template <typename F>
void fill_draws(const Tensor& self, const std::optional<Generator>& gen, const F& f) {
  if (self.numel() == 0) return;
  const int64_t n = self.numel();
  const PhiloxRange r = reserve_philox(gen, uint64_t((n + 3) / 4));
  Tensor buf = detail::empty_generic(self.sizes(), kDouble, self.device());
  double* out = buf.data_ptr<double>();
  parallel_for(0, n, 4096, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) out[i] = f(unit(r, uint64_t(i)));
  });
  self.copy_(buf);
}

// Each op's argument rule is its meta function; the CPU kernel checks through it, then samples.
Tensor exponential_meta(const Tensor& self, double lambd, std::optional<Generator>) {
  BRASA_CHECK_TYPE(self.is_floating_point(), "exponential_: not implemented for dtype ",
                   self.dtype());
  BRASA_CHECK(lambd >= 0, "exponential_ expects lambda >= 0.0, but found lambda=", lambd);
  return self;
}

Tensor exponential_kernel(const Tensor& self, double lambd, std::optional<Generator> gen) {
  exponential_meta(self, lambd, gen);
  if (!is_philox(gen)) {
    fill_from_engine<double>(self, gen, kDouble, [lambd](auto& engine, double* d, int64_t n) {
      cpu::mt::exponential(engine, d, n, lambd);
    });
    return self;
  }
  fill_draws(self, gen, [lambd](double u) { return -std::log1p(-u) / lambd; });
  return self;
}

Tensor geometric_meta(const Tensor& self, double p, std::optional<Generator>) {
  BRASA_CHECK(p > 0 && p < 1, "geometric_ expects p to be in (0, 1), but got p=", p);
  BRASA_CHECK_TYPE(self.scalar_type() != kBool, "geometric_: not implemented for dtype Bool");
  return self;
}

Tensor geometric_kernel(const Tensor& self, double p, std::optional<Generator> gen) {
  geometric_meta(self, p, gen);
  if (!is_philox(gen)) {
    fill_from_engine<double>(self, gen, kDouble, [p](auto& engine, double* d, int64_t n) {
      cpu::mt::geometric(engine, d, n, p);
    });
    return self;
  }
  const double denom = std::log1p(-p);
  fill_draws(self, gen, [denom](double u) { return std::ceil(std::log1p(-u) / denom); });
  return self;
}

// Samples of one row: probs[0..k) (validated), writes n indices.
void sample_row(const double* probs, int64_t k, int64_t n, bool replacement, const PhiloxRange& r,
                uint64_t first, int64_t* out, std::vector<double>& scratch,
                std::vector<int64_t>& order) {
  if (replacement) {
    scratch.resize(size_t(k));
    std::partial_sum(probs, probs + k, scratch.begin());
    const double total = scratch.back();
    for (int64_t s = 0; s < n; ++s) {
      const double target = unit(r, first + uint64_t(s)) * total;
      auto it = std::upper_bound(scratch.begin(), scratch.end(), target);
      int64_t j = std::min<int64_t>(int64_t(it - scratch.begin()), k - 1);
      while (probs[j] == 0 && j > 0) --j;  // a rounding step onto a zero category
      out[s] = j;
    }
    return;
  }
  scratch.resize(size_t(k));
  order.resize(size_t(k));
  for (int64_t j = 0; j < k; ++j) {
    const double u = unit(r, first + uint64_t(j));
    scratch[size_t(j)] = probs[j] > 0 ? -std::log1p(-u) / probs[j] : HUGE_VAL;
    order[size_t(j)] = j;
  }
  std::partial_sort(order.begin(), order.begin() + n, order.end(), [&](int64_t a, int64_t b) {
    return scratch[size_t(a)] < scratch[size_t(b)] ||
           (scratch[size_t(a)] == scratch[size_t(b)] && a < b);
  });
  std::copy(order.begin(), order.begin() + n, out);
}

Tensor multinomial_meta(const Tensor& self, int64_t n, bool replacement, std::optional<Generator>) {
  BRASA_CHECK(self.dim() == 1 || self.dim() == 2, "prob_dist must be 1 or 2 dim, got ",
              self.sizes());
  BRASA_CHECK_TYPE(
      self.is_floating_point(),
      "multinomial only supports floating-point dtypes for input, got: ", self.scalar_type());
  BRASA_CHECK(n > 0, "cannot sample n_sample <= 0 samples");
  const int64_t k = self.size(-1), rows = self.dim() == 2 ? self.size(0) : 1;
  BRASA_CHECK(replacement || n <= k,
              "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  return detail::empty_generic(
      self.dim() == 2 ? std::vector<int64_t>{rows, n} : std::vector<int64_t>{n}, kLong,
      self.device());
}

// libtorch's search of running sums in precision `acc` (self's dtype; float for Half/BFloat16).
template <typename acc>
void multinomial_rows_mt(const Tensor& probs, int64_t n, MT19937& e, int64_t* out) {
  const int64_t rows = probs.size(0), k = probs.size(1);
  const acc* p = probs.data_ptr<acc>();
  std::vector<acc> cum(static_cast<size_t>(k));
  for (int64_t row = 0; row < rows; ++row) {
    acc sum = 0;
    for (int64_t j = 0; j < k; ++j) cum[size_t(j)] = sum += p[row * k + j];
    for (int64_t j = 0; j < k; ++j) cum[size_t(j)] /= sum;
    cum[size_t(k - 1)] = 1;
    for (int64_t s = 0; s < n; ++s) {
      double u;
      cpu::mt::uniform53(e, &u, 1);
      int64_t left = 0, right = k;
      while (right > left) {
        const int64_t mid = left + (right - left) / 2;
        if (double(cum[size_t(mid)]) < u)
          left = mid + 1;
        else
          right = mid;
      }
      out[row * n + s] = left;
    }
  }
}

Tensor multinomial_mt(const Tensor& self, int64_t n, bool replacement,
                      const std::optional<Generator>& gen, Tensor& result) {
  if (!replacement) {
    Tensor q = empty_like(self).exponential_(1, gen);
    q = self / q;
    return n == 1 ? q.argmax(-1, true) : std::get<1>(q.topk(n));
  }
  const int64_t k = self.size(-1), rows = self.dim() == 2 ? self.size(0) : 1;
  const bool wide = self.scalar_type() == kDouble;
  Tensor probs = self.to(wide ? kDouble : kFloat).contiguous().reshape({rows, k});
  const Generator& g = resolve_generator(gen);
  std::lock_guard<std::mutex> lock(g.mutex());
  int64_t* out = result.data_ptr<int64_t>();
  if (wide)
    multinomial_rows_mt<double>(probs, n, g.get()->engine(), out);
  else
    multinomial_rows_mt<float>(probs, n, g.get()->engine(), out);
  return result;
}

Tensor multinomial_kernel(const Tensor& self, int64_t n, bool replacement,
                          std::optional<Generator> gen) {
  Tensor result = multinomial_meta(self, n, replacement, gen);
  const int64_t k = self.size(-1), rows = self.dim() == 2 ? self.size(0) : 1;
  if (rows == 0) return result;
  Tensor probs = self.to(kDouble).contiguous().reshape({rows, k});
  const double* p = probs.data_ptr<double>();
  for (int64_t row = 0; row < rows; ++row) {
    double total = 0;
    for (int64_t j = 0; j < k; ++j) {
      const double x = p[row * k + j];
      BRASA_CHECK(std::isfinite(x) && x >= 0,
                  "probability tensor contains either `inf`, `nan` or element < 0");
      total += x;
    }
    BRASA_CHECK(total > 0, "invalid multinomial distribution (sum of probabilities <= 0)");
  }
  if (!is_philox(gen)) return multinomial_mt(self, n, replacement, gen, result);
  const int64_t per_row = replacement ? n : k;
  const PhiloxRange r = reserve_philox(gen, uint64_t((rows * per_row + 3) / 4));
  int64_t* out = result.data_ptr<int64_t>();
  parallel_for(0, rows, 1, [&](int64_t b, int64_t e) {
    std::vector<double> scratch;
    std::vector<int64_t> order;
    for (int64_t row = b; row < e; ++row)
      sample_row(p + row * k, k, n, replacement, r, uint64_t(row * per_row), out + row * n, scratch,
                 order);
  });
  return result;
}

}  // namespace

BRASA_REGISTER_KERNEL(exponential_op, exponential_kernel, CPU)
BRASA_REGISTER_KERNEL(exponential_op, exponential_meta, Meta)
BRASA_REGISTER_KERNEL(geometric_op, geometric_kernel, CPU)
BRASA_REGISTER_KERNEL(geometric_op, geometric_meta, Meta)
BRASA_REGISTER_KERNEL(multinomial_op, multinomial_kernel, CPU)
BRASA_REGISTER_KERNEL(multinomial_op, multinomial_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

const Tensor& Tensor::exponential_(double lambd, std::optional<Generator> gen) const {
  ops::exponential_op().call(*this, lambd, std::move(gen));
  return *this;
}
const Tensor& Tensor::geometric_(double p, std::optional<Generator> gen) const {
  ops::geometric_op().call(*this, p, std::move(gen));
  return *this;
}
const Tensor& Tensor::cauchy_(double median, double sigma, std::optional<Generator> gen) const {
  BRASA_CHECK_TYPE(is_floating_point(), "cauchy_: expects a floating-point tensor, got ",
                   scalar_type());
  BRASA_CHECK(sigma > 0, "cauchy_: sigma must be positive, got ", sigma);
  uniform_(0, 1, std::move(gen));
  sub_(0.5).mul_(M_PI).tan_().mul_(sigma).add_(median);
  return *this;
}
const Tensor& Tensor::log_normal_(double mean, double std, std::optional<Generator> gen) const {
  BRASA_CHECK_TYPE(is_floating_point(), "log_normal_: expects a floating-point tensor, got ",
                   scalar_type());
  BRASA_CHECK(std > 0, "log_normal_: std must be positive, got ", std);
  normal_(mean, std, std::move(gen));
  exp_();
  return *this;
}
Tensor Tensor::multinomial(int64_t num_samples, bool replacement,
                           std::optional<Generator> gen) const {
  return ops::multinomial_op().call(*this, num_samples, replacement, std::move(gen));
}
Tensor multinomial(const Tensor& self, int64_t num_samples, bool replacement,
                   std::optional<Generator> generator) {
  return self.multinomial(num_samples, replacement, std::move(generator));
}

}  // namespace brasa
