// rand, randn, randint, randperm and their _like forms: empty + an in-place random fill
// (randperm is its own dispatched op: its draws are serial, Fisher-Yates; libtorch's shuffle for an
// MT19937 generator, Note [libtorch CPU sampling]).
#include <cmath>
#include <limits>

#include "backends/cpu/kernels/random_kernels.h"
#include "backends/cpu/mt_sampling.h"
#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/factory.h"
#include "ops/random/random_fill.h"
#include "ops/random/random_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(randperm_op)

namespace {

// Largest n for which 0..n-1 are all exact in dtype.
int64_t randperm_limit(ScalarType dt) {
  switch (dt) {
    case kByte: return 256;
    case kChar: return 128;
    case kShort: return 32768;
    case kInt: return int64_t(1) << 31;
    case kHalf: return 2049;
    case kBFloat16: return 257;
    case kFloat: return (int64_t(1) << 24) + 1;
    case kDouble: return (int64_t(1) << 53) + 1;
    default: return std::numeric_limits<int64_t>::max();
  }
}

Tensor randperm_meta(int64_t n, std::optional<Generator>, ScalarType dt, Device device) {
  BRASA_CHECK(n >= 0, "randperm: n must be non-negative, got ", n);
  BRASA_CHECK_TYPE(dt != kBool, "randperm: not implemented for dtype Bool");
  BRASA_CHECK(n <= randperm_limit(dt), "randperm: n=", n, " is too large for dtype ", dt,
              " (at most ", randperm_limit(dt), ")");
  return detail::empty_generic({n}, dt, device);
}

Tensor randperm_kernel(int64_t n, std::optional<Generator> gen, ScalarType dt, Device device) {
  Tensor out = randperm_meta(n, gen, dt, device);
  if (n == 0) return out;
  if (!is_philox(gen)) {
    fill_from_engine<int64_t>(out, gen, kLong, [](auto& engine, int64_t* d, int64_t count) {
      cpu::mt::randperm(engine, d, count);
    });
    return out;
  }
  const uint64_t draws = static_cast<uint64_t>(n - 1);
  PhiloxRange r = reserve_philox(gen, (draws + kRandom64PerBlock - 1) / kRandom64PerBlock);
  randperm_stub(out.data_ptr(), dt, n, r);
  return out;
}

}  // namespace

BRASA_REGISTER_KERNEL(randperm_op, randperm_kernel, CPU)
BRASA_REGISTER_KERNEL(randperm_op, randperm_meta, Meta)

}  // namespace brasa::ops

namespace brasa {
namespace {
// randint and randperm default to Long when the options carry no dtype (libtorch's schema default).
TensorOptions long_by_default(const TensorOptions& o) { return o.has_dtype() ? o : o.dtype(kLong); }
Tensor finish(Tensor t, const TensorOptions& o) {
  if (o.requires_grad()) t.set_requires_grad(true);
  return t;
}
// Fill without recording requires_grad first (in-place on a leaf that requires grad is an error).
TensorOptions no_grad(const TensorOptions& o) { return o.requires_grad(false); }
}  // namespace

Tensor rand(IntArrayRef size, std::optional<Generator> gen, const TensorOptions& o) {
  Tensor t = empty(size, no_grad(o));
  cpu::NewTensorWrites new_tensor;  // Note [Version of new tensors]
  t.uniform_(0, 1, std::move(gen));
  return finish(t, o);
}
Tensor rand(IntArrayRef size, const TensorOptions& o) { return rand(size, std::nullopt, o); }

Tensor randn(IntArrayRef size, std::optional<Generator> gen, const TensorOptions& o) {
  Tensor t = empty(size, no_grad(o));
  cpu::NewTensorWrites new_tensor;
  if (t.is_complex()) {
    // Like PyTorch: real and imaginary parts independent N(0, 1/2), so E|z|^2 = 1, drawn as the
    // interleaved pairs of view_as_real (PyTorch's layout of the draws).
    view_as_real(t).normal_(0, std::sqrt(0.5), std::move(gen));
    return finish(t, o);
  }
  t.normal_(0, 1, std::move(gen));
  return finish(t, o);
}
Tensor randn(IntArrayRef size, const TensorOptions& o) { return randn(size, std::nullopt, o); }

Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> gen,
               const TensorOptions& o) {
  TensorOptions opts = long_by_default(o);
  Tensor t = empty(size, no_grad(opts));
  cpu::NewTensorWrites new_tensor;
  t.random_(low, high, std::move(gen));
  return finish(t, opts);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions& o) {
  return randint(low, high, size, std::nullopt, o);
}
Tensor randint(int64_t high, IntArrayRef size, std::optional<Generator> gen,
               const TensorOptions& o) {
  return randint(0, high, size, std::move(gen), o);
}
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& o) {
  return randint(0, high, size, std::nullopt, o);
}

Tensor randperm(int64_t n, std::optional<Generator> gen, const TensorOptions& o) {
  TensorOptions opts = long_by_default(o);
  return finish(ops::randperm_op().call(n, std::move(gen), opts.dtype(), opts.device()), opts);
}
Tensor randperm(int64_t n, const TensorOptions& o) { return randperm(n, std::nullopt, o); }

Tensor rand_like(const Tensor& self, const TensorOptions& o) {
  return rand(self.sizes(), o.merge_in(self.options()));
}
Tensor randn_like(const Tensor& self, const TensorOptions& o) {
  return randn(self.sizes(), o.merge_in(self.options()));
}
Tensor randint_like(const Tensor& self, int64_t high, const TensorOptions& o) {
  return randint(0, high, self.sizes(), o.merge_in(self.options()));
}
Tensor randint_like(const Tensor& self, int64_t low, int64_t high, const TensorOptions& o) {
  return randint(low, high, self.sizes(), o.merge_in(self.options()));
}

}  // namespace brasa
