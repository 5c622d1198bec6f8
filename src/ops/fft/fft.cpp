// torch.fft's functions as composites of the three primitives (fft_ops.h): argument rules (n / s,
// dim, norm), zero-padding or trimming of the input, dtype promotion; frequencies and shifts.
#include "brasa/ops/fft.h"

#include <vector>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/autocast_mode.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/tensor_data.h"
#include "brasa/ops/view.h"
#include "ops/fft/fft_ops.h"

namespace brasa {
namespace {

enum Normalization : int64_t { kNone = 0, kBySqrtN = 1, kByN = 2 };

int64_t normalization(const char* op, FftNorm norm, bool forward) {
  if (!norm || *norm == "backward") return forward ? kNone : kByN;
  if (*norm == "forward") return forward ? kByN : kNone;
  if (*norm == "ortho") return kBySqrtN;
  BRASA_THROW(ValueError, op, ": invalid normalization mode \"", *norm,
              "\" (expected \"backward\", \"forward\" or \"ortho\")");
}

// Integral (and bool) inputs compute in the default float dtype; Half and BFloat16 have no FFT
// (under autocast the transforms are float32 ops, Note [Autocast]).
Tensor promote_input(const char* op, const Tensor& x_in, bool require_complex) {
  BRASA_CHECK(x_in.defined(), op, ": got an undefined tensor");
  const Tensor x = autocast::is_active() ? autocast::cached_cast(kFloat, x_in) : x_in;
  ScalarType t = x.dtype();
  BRASA_CHECK_TYPE(!is_reduced_floating_type(t), op, ": unsupported dtype ", t);
  if (is_integral_type(t, true)) t = get_default_dtype();
  if (require_complex) t = to_complex_type(t);
  return t == x.dtype() ? x : x.to(t);
}

// Zero-pads or trims x along dims[i] to sizes[i] (-1 keeps the size).
Tensor resize_input(const char* op, Tensor x, IntArrayRef dims, IntArrayRef sizes) {
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i], want = sizes[i], have = x.size(d);
    if (want == -1 || want == have) continue;
    BRASA_CHECK(want >= 1, op, ": invalid number of data points (", want, ") specified");
    if (want < have) {
      x = x.narrow(d, 0, want);
    } else {
      DimVector pad_shape(x.sizes());
      pad_shape[size_t(d)] = want - have;
      x = cat({x, zeros(pad_shape, x.options())}, d);
    }
  }
  return x;
}

struct Plan {
  DimVector dims, sizes;  // sizes: -1 where the input's size is kept
};

// torch.fft's rule for (s, dim): dim defaults to the last len(s) dims, or every dim; s to -1s.
Plan plan_nd(const char* op, const Tensor& x, OptionalDims s, OptionalDims dim) {
  Plan p;
  if (dim) {
    for (int64_t d : *dim) p.dims.push_back(detail::wrap_dim(d, x.dim(), op));
    if (s)
      BRASA_CHECK(s->size() == dim->size(), op, ": when given, dim and shape arguments must have ",
                  "the same length, got ", *s, " and ", *dim);
  } else if (s) {
    BRASA_CHECK(int64_t(s->size()) <= x.dim(), op, ": got shape ", *s, " with ", s->size(),
                " values but the input has only ", x.dim(), " dims");
    for (int64_t i = x.dim() - int64_t(s->size()); i < x.dim(); ++i) p.dims.push_back(i);
  } else {
    for (int64_t i = 0; i < x.dim(); ++i) p.dims.push_back(i);
  }
  for (size_t i = 0; i < p.dims.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      BRASA_CHECK(p.dims[i] != p.dims[j], op, ": FFT dims must be unique, got ", p.dims);
  for (size_t i = 0; i < p.dims.size(); ++i) p.sizes.push_back(s ? (*s)[i] : -1);
  return p;
}

Tensor c2c_nd(const char* op, const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm,
              bool forward) {
  Tensor x = promote_input(op, self, true);
  Plan p = plan_nd(op, x, s, dim);
  x = resize_input(op, x, p.dims, p.sizes);
  return ops::fft_c2c_op().call(x, p.dims, normalization(op, norm, forward), forward);
}

Tensor r2c_nd(const char* op, const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm) {
  BRASA_CHECK_TYPE(!self.is_complex(), op, ": expects a real input tensor, got ", self.dtype());
  Tensor x = promote_input(op, self, false);
  Plan p = plan_nd(op, x, s, dim);
  BRASA_CHECK(!p.dims.empty(), op, ": must transform at least one axis");
  x = resize_input(op, x, p.dims, p.sizes);
  return ops::fft_r2c_op().call(x, p.dims, normalization(op, norm, true), true);
}

// The last dim's output size: s's last entry, else 2 * (bins - 1); the input keeps n / 2 + 1 bins.
Tensor c2r_nd(const char* op, const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm) {
  Tensor x = promote_input(op, self, true);
  Plan p = plan_nd(op, x, s, dim);
  BRASA_CHECK(!p.dims.empty(), op, ": must transform at least one axis");
  const int64_t last = p.dims.back();
  const int64_t n = p.sizes.back() != -1 ? p.sizes.back() : 2 * (x.size(last) - 1);
  BRASA_CHECK(n >= 1, op, ": invalid number of data points (", n, ") specified");
  p.sizes.back() = n / 2 + 1;
  x = resize_input(op, x, p.dims, p.sizes);
  return ops::fft_c2r_op().call(x, p.dims, normalization(op, norm, false), n);
}

OptionalIntArrayRef one(const std::optional<int64_t>& n, const int64_t& value) {
  return n ? OptionalIntArrayRef(IntArrayRef(&value, 1)) : std::nullopt;
}

// A roll by size / 2 (fftshift) or (size + 1) / 2 (ifftshift) along each dim, as two slices
// joined (roll's index kernel has no complex dtypes; slices and cat only copy).
Tensor shift(const char* op, const Tensor& self, OptionalDims dim, bool inverse) {
  DimVector dims;
  if (dim) {
    for (int64_t d : *dim) dims.push_back(detail::wrap_dim(d, self.dim(), op));
  } else {
    for (int64_t d = 0; d < self.dim(); ++d) dims.push_back(d);
  }
  Tensor r = self;
  for (int64_t d : dims) {
    const int64_t size = r.size(d), s = inverse ? (size + 1) / 2 : size / 2;
    if (s == 0 || s == size) continue;
    r = cat({r.narrow(d, size - s, s), r.narrow(d, 0, size - s)}, d);
  }
  return r.is_same(self) ? self.clone() : r;
}

}  // namespace

Tensor fft_fft(const Tensor& self, std::optional<int64_t> n, int64_t dim, FftNorm norm) {
  const int64_t size = n.value_or(-1);
  return c2c_nd("fft_fft", self, one(n, size), IntArrayRef(dim), norm, true);
}
Tensor fft_ifft(const Tensor& self, std::optional<int64_t> n, int64_t dim, FftNorm norm) {
  const int64_t size = n.value_or(-1);
  return c2c_nd("fft_ifft", self, one(n, size), IntArrayRef(dim), norm, false);
}
Tensor fft_rfft(const Tensor& self, std::optional<int64_t> n, int64_t dim, FftNorm norm) {
  const int64_t size = n.value_or(-1);
  return r2c_nd("fft_rfft", self, one(n, size), IntArrayRef(dim), norm);
}
Tensor fft_irfft(const Tensor& self, std::optional<int64_t> n, int64_t dim, FftNorm norm) {
  const int64_t size = n.value_or(-1);
  return c2r_nd("fft_irfft", self, one(n, size), IntArrayRef(dim), norm);
}
Tensor fft_fftn(const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm) {
  return c2c_nd("fft_fftn", self, s, dim, norm, true);
}
Tensor fft_ifftn(const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm) {
  return c2c_nd("fft_ifftn", self, s, dim, norm, false);
}
Tensor fft_rfftn(const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm) {
  return r2c_nd("fft_rfftn", self, s, dim, norm);
}
Tensor fft_irfftn(const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm) {
  return c2r_nd("fft_irfftn", self, s, dim, norm);
}
Tensor fft_fft2(const Tensor& self, OptionalDims s, IntArrayRef dim, FftNorm norm) {
  return c2c_nd("fft_fft2", self, s, dim, norm, true);
}
Tensor fft_ifft2(const Tensor& self, OptionalDims s, IntArrayRef dim, FftNorm norm) {
  return c2c_nd("fft_ifft2", self, s, dim, norm, false);
}
Tensor fft_rfft2(const Tensor& self, OptionalDims s, IntArrayRef dim, FftNorm norm) {
  return r2c_nd("fft_rfft2", self, s, dim, norm);
}
Tensor fft_irfft2(const Tensor& self, OptionalDims s, IntArrayRef dim, FftNorm norm) {
  return c2r_nd("fft_irfft2", self, s, dim, norm);
}

// [0, 1, ..., ceil(n / 2) - 1, -floor(n / 2), ..., -1] / (d * n), computed in double.
Tensor fft_fftfreq(int64_t n, double d, const TensorOptions& options) {
  BRASA_CHECK(n >= 0, "fft_fftfreq: n must be non-negative, got ", n);
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k)
    v[size_t(k)] = double(k < (n + 1) / 2 ? k : k - n) / (d * double(n));
  Tensor t = detail::tensor_from_array(v.data(), n, kDouble);
  return t.to(options.has_dtype() ? options.dtype() : get_default_dtype()).to(options.device());
}
Tensor fft_rfftfreq(int64_t n, double d, const TensorOptions& options) {
  BRASA_CHECK(n >= 0, "fft_rfftfreq: n must be non-negative, got ", n);
  std::vector<double> v(size_t(n / 2 + 1));
  for (int64_t k = 0; k <= n / 2; ++k) v[size_t(k)] = double(k) / (d * double(n));
  Tensor t = detail::tensor_from_array(v.data(), n / 2 + 1, kDouble);
  return t.to(options.has_dtype() ? options.dtype() : get_default_dtype()).to(options.device());
}
Tensor fft_fftshift(const Tensor& self, OptionalDims dim) {
  return shift("fft_fftshift", self, dim, false);
}
Tensor fft_ifftshift(const Tensor& self, OptionalDims dim) {
  return shift("fft_ifftshift", self, dim, true);
}

}  // namespace brasa
