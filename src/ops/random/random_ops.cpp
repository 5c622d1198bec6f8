// In-place random fills (uniform_, normal_, bernoulli_, random_) as dispatched ops, and the Tensor
// methods. Loops: backends/cpu/kernels/random_kernels.cpp.
#include "ops/random/random_ops.h"

#include <cmath>
#include <limits>

#include "backends/cpu/kernels/random_kernels.h"
#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(uniform_stub, UniformKernel);
BRASA_DEFINE_STUB(normal_stub, NormalKernel);
BRASA_DEFINE_STUB(bernoulli_stub, BernoulliKernel);
BRASA_DEFINE_STUB(random_from_to_stub, RandomKernel);
BRASA_DEFINE_STUB(randperm_stub, RandpermKernel);

PhiloxRange reserve_philox(const std::optional<Generator>& gen, uint64_t blocks) {
  const Generator& g = gen && gen->defined() ? *gen : default_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  return PhiloxRange{g.current_seed(), g.get()->reserve(blocks)};
}

BRASA_DEFINE_OP(uniform_op)
BRASA_DEFINE_OP(normal_op)
BRASA_DEFINE_OP(bernoulli_op)
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

Tensor uniform_kernel(const Tensor& self, double from, double to, std::optional<Generator> gen) {
  uniform_meta(self, from, to, gen);
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

Tensor normal_kernel(const Tensor& self, double mean, double std, std::optional<Generator> gen) {
  normal_meta(self, mean, std, gen);
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
  fill_contiguous(self, [&](void* data) {
    PhiloxRange r = reserve_philox(gen, blocks_for(self.numel(), kBernoulliPerBlock));
    bernoulli_stub(data, self.dtype(), self.numel(), r, p);
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

Tensor random_kernel(const Tensor& self, int64_t from, int64_t to, std::optional<Generator> gen) {
  random_meta(self, from, to, gen);
  const uint64_t range = uint64_t(to) - uint64_t(from);
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
const Tensor& Tensor::random_(int64_t from, int64_t to, std::optional<Generator> gen) const {
  ops::random_op().call(*this, from, to, std::move(gen));
  return *this;
}

}  // namespace brasa
