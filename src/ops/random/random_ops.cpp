// In-place random fills (uniform_, normal_, bernoulli_, random_) as dispatched ops, and the Tensor
// methods. Loops: backends/cpu/kernels/random_kernels.cpp.
#include "ops/random/random_ops.h"

#include <cmath>
#include <limits>

#include "backends/cpu/kernels/random_kernels.h"
#include "backends/cpu/mt_sampling.h"
#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/sampling.h"
#include "ops/random/random_fill.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(uniform_stub, UniformKernel);
BRASA_DEFINE_STUB(normal_stub, NormalKernel);
BRASA_DEFINE_STUB(bernoulli_stub, BernoulliKernel);
BRASA_DEFINE_STUB(random_from_to_stub, RandomKernel);
BRASA_DEFINE_STUB(randperm_stub, RandpermKernel);

PhiloxRange reserve_philox(const std::optional<Generator>& gen, uint64_t blocks) {
  const Generator& g = resolve_generator(gen);
  std::lock_guard<std::mutex> lock(g.mutex());
  // An MT19937 generator keys a fresh Philox range with one 64-bit draw (Note [Generator kinds]).
  if (g.kind() == GeneratorKind::MT19937) return PhiloxRange{g.get()->engine().next64(), 0};
  return PhiloxRange{g.current_seed(), g.get()->reserve(blocks)};
}

BRASA_DEFINE_OP(uniform_op)
BRASA_DEFINE_OP(normal_op)
BRASA_DEFINE_OP(bernoulli_op)
BRASA_DEFINE_OP(bernoulli_tensor_op)
BRASA_DEFINE_OP(random_op)

namespace {

// Runs fill(data) over a contiguous buffer holding self's elements in row-major order.
template <typename F>
void fill_contiguous(const Tensor& self, const F& fill) {
  if (self.numel() == 0) return;
  if (self.is_contiguous()) {
    fill(self.data_ptr());
    cpu::count_write(self);
    return;
  }
  Tensor tmp = detail::empty_generic(self.sizes(), self.dtype(), self.device());
  fill(tmp.data_ptr());
  self.copy_(tmp);
}

uint64_t blocks_for(int64_t n, int64_t per_block) {
  return static_cast<uint64_t>((n + per_block - 1) / per_block);
}

double dtype_max(ScalarType dt) {
  switch (dt) {
    case kHalf: return 65504.0;
    case kBFloat16: return 3.3895313892515355e38;
    case kFloat: return std::numeric_limits<float>::max();
    default: return std::numeric_limits<double>::max();
  }
}

// Each op's argument rule is its meta function (an in-place fill keeps self's shape); the CPU
// kernel checks through it, then fills.
Tensor uniform_meta(const Tensor& self, double from, double to, std::optional<Generator>) {
  BRASA_CHECK_TYPE(self.is_floating_point(), "uniform_: not implemented for dtype ", self.dtype());
  const double lim = dtype_max(self.dtype());
  BRASA_CHECK(std::isfinite(from) && std::abs(from) <= lim, "uniform_: from=", from,
              " is out of bounds for ", self.dtype());
  BRASA_CHECK(std::isfinite(to) && std::abs(to) <= lim, "uniform_: to=", to,
              " is out of bounds for ", self.dtype());
  BRASA_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from,
              " > to=", to);
  BRASA_CHECK(to - from <= lim, "uniform_ expects to-from <= the largest ", self.dtype(),
              ", but found to=", to, " and from=", from);
  return self;
}

// libtorch's uniform_ (Note [libtorch CPU sampling]): bounds rounded to the dtype first.
void uniform_mt(const Tensor& self, double from, double to, GeneratorImpl& g) {
  const ScalarType dt = self.scalar_type();
  if (dt == kDouble) {
    fill_in_order(self, kDouble, [&](void* d, int64_t n) {
      cpu::mt::uniform_double(g.engine(), static_cast<double*>(d), n, from, to);
    });
    return;
  }
  float lo = float(from), range = float(to) - float(from);
  int bits = 24;
  if (dt == kHalf) {
    lo = float(Half(float(from)));
    range = float(Half(float(Half(float(to))) - lo));
    bits = 11;
  } else if (dt == kBFloat16) {
    lo = float(BFloat16(float(from)));
    range = float(BFloat16(float(BFloat16(float(to))) - lo));
    bits = 8;
  }
  fill_in_order(self, kFloat, [&](void* d, int64_t n) {
    cpu::mt::uniform_float(g.engine(), static_cast<float*>(d), n, bits, lo, range);
  });
}

Tensor uniform_kernel(const Tensor& self, double from, double to, std::optional<Generator> gen) {
  uniform_meta(self, from, to, gen);
  if (!is_philox(gen)) {
    const Generator& g = resolve_generator(gen);
    std::lock_guard<std::mutex> lock(g.mutex());
    uniform_mt(self, from, to, *g.get());
    return self;
  }
  fill_contiguous(self, [&](void* data) {
    PhiloxRange r = reserve_philox(gen, blocks_for(self.numel(), uniform_per_block(self.dtype())));
    uniform_stub(data, self.dtype(), self.numel(), r, from, to);
  });
  return self;
}

Tensor normal_meta(const Tensor& self, double, double std, std::optional<Generator>) {
  BRASA_CHECK_TYPE(self.is_floating_point(), "normal_: not implemented for dtype ", self.dtype());
  BRASA_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  return self;
}

// libtorch's normal_: the block form for contiguous tensors of 16 or more elements, else the
// serial one (Note [libtorch CPU sampling]).
void normal_mt(const Tensor& self, double mean, double std, GeneratorImpl& g) {
  const int64_t n = self.numel();
  if (n >= 16 && self.is_contiguous()) {
    void* d = self.data_ptr();
    switch (self.scalar_type()) {
      case kFloat:
        cpu::mt::normal_fill_float(g.engine(), static_cast<float*>(d), n, float(mean), float(std));
        break;
      case kDouble:
        cpu::mt::normal_fill_double(g.engine(), static_cast<double*>(d), n, mean, std);
        break;
      case kHalf:
        cpu::mt::normal_fill_half(g.engine(), static_cast<Half*>(d), n, Half(float(mean)),
                                  Half(float(std)));
        break;
      default:
        cpu::mt::normal_fill_bfloat16(g.engine(), static_cast<BFloat16*>(d), n,
                                      BFloat16(float(mean)), BFloat16(float(std)));
    }
    self.unsafeGetTensorImpl()->bump_version();
    return;
  }
  fill_in_order(self, kDouble, [&](void* d, int64_t count) {
    cpu::mt::normal_serial(g, static_cast<double*>(d), count, mean, std);
  });
}

Tensor normal_kernel(const Tensor& self, double mean, double std, std::optional<Generator> gen) {
  normal_meta(self, mean, std, gen);
  if (!is_philox(gen)) {
    const Generator& g = resolve_generator(gen);
    std::lock_guard<std::mutex> lock(g.mutex());
    normal_mt(self, mean, std, *g.get());
    return self;
  }
  fill_contiguous(self, [&](void* data) {
    PhiloxRange r = reserve_philox(gen, blocks_for(self.numel(), normal_per_block(self.dtype())));
    normal_stub(data, self.dtype(), self.numel(), r, mean, std);
  });
  return self;
}

Tensor bernoulli_meta(const Tensor& self, double p, std::optional<Generator>) {
  BRASA_CHECK(p >= 0.0 && p <= 1.0, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  return self;
}

Tensor bernoulli_kernel(const Tensor& self, double p, std::optional<Generator> gen) {
  bernoulli_meta(self, p, gen);
  if (!is_philox(gen)) {
    fill_from_engine<uint8_t>(self, gen, kByte, [p](auto& engine, uint8_t* d, int64_t n) {
      cpu::mt::bernoulli_scalar(engine, d, n, p);
    });
    return self;
  }
  fill_contiguous(self, [&](void* data) {
    PhiloxRange r = reserve_philox(gen, blocks_for(self.numel(), kBernoulliPerBlock));
    bernoulli_stub(data, self.dtype(), self.numel(), r, p);
  });
  return self;
}

Tensor bernoulli_tensor_meta(const Tensor& self, const Tensor& p, std::optional<Generator>) {
  BRASA_CHECK_TYPE(p.is_floating_point(),
                   "bernoulli_: expected a floating probability tensor, got ", p.scalar_type());
  BRASA_CHECK(p.dim() <= self.dim(), "bernoulli_: probabilities of shape ", p.sizes(),
              " do not broadcast to self of shape ", self.sizes());
  for (int64_t d = 1; d <= p.dim(); ++d) {
    const int64_t ps = p.size(-d), ss = self.size(-d);
    BRASA_CHECK(ps == ss || ps == 1, "bernoulli_: probabilities of shape ", p.sizes(),
                " do not broadcast to self of shape ", self.sizes());
  }
  return self;
}

// libtorch draws in self's fill order, a 53-bit uniform per Double probability and a 24-bit
// float uniform per other probability (Note [libtorch CPU sampling]); Philox generators compare
// their double uniforms.
Tensor bernoulli_tensor_kernel(const Tensor& self, const Tensor& p, std::optional<Generator> gen) {
  bernoulli_tensor_meta(self, p, gen);
  if (self.numel() == 0) return self;
  const bool wide = p.scalar_type() == kDouble;
  Tensor probs = p.to(wide ? kDouble : kFloat).expand(self.sizes());
  const double lo = probs.min().to(kDouble).item<double>(),
               hi = probs.max().to(kDouble).item<double>();
  BRASA_CHECK(lo >= 0 && hi <= 1,
              "bernoulli_: expected all probabilities in [0, 1], got values in [", lo, ", ", hi,
              "]");
  if (is_philox(gen)) {
    Tensor u = detail::empty_generic(self.sizes(), kDouble, self.device());
    u.uniform_(0, 1, gen);
    self.copy_(u.lt(probs.to(kDouble)));
    return self;
  }
  Tensor ordered = probs.permute(fill_order(self)).contiguous();
  fill_from_engine<uint8_t>(self, gen, kByte, [&](auto& engine, uint8_t* out, int64_t n) {
    if (wide)
      cpu::mt::bernoulli_tensor(engine, out, n, ordered.data_ptr<double>());
    else
      cpu::mt::bernoulli_tensor(engine, out, n, ordered.data_ptr<float>());
  });
  return self;
}

// The integers a dtype holds exactly: [lo, hi].
void integer_limits(ScalarType dt, int64_t* lo, int64_t* hi) {
  switch (dt) {
    case kBool: *lo = 0, *hi = 1; return;
    case kByte: *lo = 0, *hi = 255; return;
    case kChar: *lo = -128, *hi = 127; return;
    case kShort: *lo = -32768, *hi = 32767; return;
    case kInt:
      *lo = std::numeric_limits<int32_t>::min(), *hi = std::numeric_limits<int32_t>::max();
      return;
    default: *lo = std::numeric_limits<int64_t>::min(), *hi = std::numeric_limits<int64_t>::max();
  }
}

Tensor random_meta(const Tensor& self, int64_t from, int64_t to, std::optional<Generator>) {
  BRASA_CHECK(from < to, "random_ expects 'from' to be less than 'to', but got from=", from,
              " >= to=", to);
  if (!self.is_floating_point()) {
    int64_t lo, hi;
    integer_limits(self.dtype(), &lo, &hi);
    BRASA_CHECK(from >= lo && from <= hi, "random_: from=", from, " is out of bounds for ",
                self.dtype());
    BRASA_CHECK(to - 1 >= lo && to - 1 <= hi, "random_: to - 1=", to - 1, " is out of bounds for ",
                self.dtype());
  }
  return self;
}

// libtorch narrows [from, to) of a floating dtype to integers the dtype holds: a bound the dtype
// would round outwards moves in by the spacing of the dtype's integers there.
void narrow_to_dtype(ScalarType dt, int64_t* from, int64_t* to) {
  const int digits = dt == kDouble ? 53 : dt == kFloat ? 24 : dt == kHalf ? 11 : 8;
  auto round_trip = [&](int64_t v) {
    switch (dt) {
      case kDouble: return int64_t(double(v));
      case kFloat: return int64_t(float(v));
      case kHalf: return int64_t(float(Half(float(v))));
      default: return int64_t(float(BFloat16(float(v))));
    }
  };
  auto top_bit = [](int64_t v) {
    int n = 0;
    for (uint64_t u = uint64_t(v < 0 ? -v : v); u >>= 1;) ++n;
    return n;
  };
  const int64_t from_plus_1 = round_trip(*from + 1);
  if (from_plus_1 < *from) *from = from_plus_1 + (int64_t(1) << (top_bit(*from + 1) - digits + 1));
  const int64_t to_minus_1 = round_trip(*to - 1);
  if (to_minus_1 >= *to) *to = to_minus_1 - (int64_t(1) << (top_bit(*to - 1) - digits + 1));
}

Tensor random_kernel(const Tensor& self, int64_t from, int64_t to, std::optional<Generator> gen) {
  random_meta(self, from, to, gen);
  if (self.is_floating_point()) {
    narrow_to_dtype(self.scalar_type(), &from, &to);
    BRASA_CHECK(from < to,
                "random_ expects 'from' casted to dtype to be less than 'to' casted to "
                "dtype, but got from=",
                from, " >= to=", to);
  }
  const uint64_t range = uint64_t(to) - uint64_t(from);
  if (!is_philox(gen)) {
    // 64-bit words only for these dtypes and ranges of 2^32 or more (Note [libtorch CPU sampling]).
    const ScalarType dt = self.scalar_type();
    const bool wide = (dt == kLong || dt == kDouble || dt == kFloat || dt == kBFloat16) &&
                      range >= (uint64_t(1) << 32);
    fill_from_engine<int64_t>(self, gen, kLong, [&](auto& engine, int64_t* d, int64_t n) {
      cpu::mt::random_from_to(engine, d, n, range, from, wide);
    });
    return self;
  }
  fill_contiguous(self, [&](void* data) {
    PhiloxRange r = reserve_philox(gen, blocks_for(self.numel(), kRandom64PerBlock));
    random_from_to_stub(data, self.dtype(), self.numel(), r, from, range);
  });
  return self;
}

}  // namespace

BRASA_REGISTER_KERNEL(uniform_op, uniform_kernel, CPU)
BRASA_REGISTER_KERNEL(uniform_op, uniform_meta, Meta)
BRASA_REGISTER_KERNEL(normal_op, normal_kernel, CPU)
BRASA_REGISTER_KERNEL(normal_op, normal_meta, Meta)
BRASA_REGISTER_KERNEL(bernoulli_op, bernoulli_kernel, CPU)
BRASA_REGISTER_KERNEL(bernoulli_op, bernoulli_meta, Meta)
BRASA_REGISTER_KERNEL(bernoulli_tensor_op, bernoulli_tensor_kernel, CPU)
BRASA_REGISTER_KERNEL(bernoulli_tensor_op, bernoulli_tensor_meta, Meta)
BRASA_REGISTER_KERNEL(random_op, random_kernel, CPU)
BRASA_REGISTER_KERNEL(random_op, random_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

const Tensor& Tensor::uniform_(double from, double to, std::optional<Generator> gen) const {
  ops::uniform_op().call(*this, from, to, std::move(gen));
  return *this;
}
const Tensor& Tensor::normal_(double mean, double std, std::optional<Generator> gen) const {
  ops::normal_op().call(*this, mean, std, std::move(gen));
  return *this;
}
const Tensor& Tensor::bernoulli_(double p, std::optional<Generator> gen) const {
  ops::bernoulli_op().call(*this, p, std::move(gen));
  return *this;
}
Tensor bernoulli(const Tensor& p, std::optional<Generator> generator) {
  Tensor result = empty(p.sizes(), p.options().requires_grad(false));
  ops::bernoulli_tensor_op().call(result, p, std::move(generator));
  return result;
}
const Tensor& bernoulli_(const Tensor& self, const Tensor& p, std::optional<Generator> generator) {
  ops::bernoulli_tensor_op().call(self, p, std::move(generator));
  return self;
}
const Tensor& Tensor::random_(int64_t from, int64_t to, std::optional<Generator> gen) const {
  ops::random_op().call(*this, from, to, std::move(gen));
  return *this;
}

}  // namespace brasa
