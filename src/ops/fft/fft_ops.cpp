// The fft primitives: shape and dtype rules (meta), CPU kernels over FFTW (backends/cpu/fft.cpp).
#include "ops/fft/fft_ops.h"

#include <cmath>

#include "backends/cpu/fft.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"

namespace brasa::ops {

BRASA_DEFINE_OP(fft_c2c_op)
BRASA_DEFINE_OP(fft_r2c_op)
BRASA_DEFINE_OP(fft_c2r_op)

double fft_scale(int64_t normalization, IntArrayRef sizes, IntArrayRef dims) {
  double n = 1;
  for (int64_t d : dims) n *= double(sizes[size_t(d)]);
  switch (normalization) {
    case 0: return 1;
    case 1: return 1 / std::sqrt(n);
    case 2: return 1 / n;
  }
  BRASA_THROW(ValueError, "fft: normalization must be 0, 1 or 2, got ", normalization);
}

namespace {

// Wrapped, unique dims; the signal sizes along them must be positive.
DimVector check_dims(const char* op, const Tensor& self, IntArrayRef dim) {
  BRASA_CHECK(self.defined(), op, ": got an undefined tensor");
  BRASA_CHECK_INDEX(self.dim() > 0 || dim.empty(), op, ": a 0-d tensor has no dim to transform");
  DimVector dims;
  for (int64_t d : dim) {
    const int64_t w = detail::wrap_dim(d, self.dim(), op);
    for (int64_t e : dims) BRASA_CHECK(e != w, op, ": dims must be unique, got ", dim);
    dims.push_back(w);
  }
  return dims;
}

void check_precision(const char* op, ScalarType t, bool complex) {
  const bool ok = complex ? is_complex_type(t) : (t == kFloat || t == kDouble);
  BRASA_CHECK_TYPE(ok, op, ": expected a ",
                   complex ? "ComplexFloat or ComplexDouble" : "Float or Double", " input, got ",
                   t);
}

Tensor c2c_meta(const Tensor& self, IntArrayRef dim, int64_t normalization, bool forward) {
  check_dims("_fft_c2c", self, dim);
  check_precision("_fft_c2c", self.dtype(), true);
  return empty(self.sizes(), TensorOptions(self.dtype()).device(Device(kMeta)));
}
// Output sizes of r2c: the last transformed dim keeps n / 2 + 1 bins when onesided.
DimVector r2c_sizes(const Tensor& self, IntArrayRef dims, bool onesided) {
  DimVector sizes(self.sizes());
  if (onesided && !dims.empty()) sizes[size_t(dims.back())] = sizes[size_t(dims.back())] / 2 + 1;
  return sizes;
}
Tensor r2c_meta(const Tensor& self, IntArrayRef dim, int64_t normalization, bool onesided) {
  DimVector dims = check_dims("_fft_r2c", self, dim);
  check_precision("_fft_r2c", self.dtype(), false);
  return empty(r2c_sizes(self, dims, onesided),
               TensorOptions(to_complex_type(self.dtype())).device(Device(kMeta)));
}
DimVector c2r_sizes(const char* op, const Tensor& self, IntArrayRef dims, int64_t last_dim_size) {
  BRASA_CHECK(!dims.empty(), op, ": needs at least one dim");
  BRASA_CHECK(last_dim_size >= 1, op, ": invalid number of data points (", last_dim_size,
              ") specified");
  DimVector sizes(self.sizes());
  sizes[size_t(dims.back())] = last_dim_size;
  return sizes;
}
Tensor c2r_meta(const Tensor& self, IntArrayRef dim, int64_t normalization, int64_t last_dim_size) {
  DimVector dims = check_dims("_fft_c2r", self, dim);
  check_precision("_fft_c2r", self.dtype(), true);
  return empty(c2r_sizes("_fft_c2r", self, dims, last_dim_size),
               TensorOptions(to_real_value_type(self.dtype())).device(Device(kMeta)));
}

Tensor scaled(Tensor r, int64_t normalization, IntArrayRef signal_sizes, IntArrayRef dims) {
  const double s = fft_scale(normalization, signal_sizes, dims);
  if (s != 1) r.mul_(s);
  return r;
}

// Note [One dim at a time]
// A multi-dim c2c runs as 1-D transforms, each over a copy in which its dim is the contiguous last
// one: FFTW_ESTIMATE plans for strided dims are slow (Note [FFT library]: the columns of a 512 x
// 512 fft2 took 8.9 ms in place, against 0.5 ms for the rows), and a transposing copy costs far
// less. A contiguous input transformed over its last dim is not copied.
Tensor c2c_dim_by_dim(const Tensor& self, IntArrayRef dims, bool forward) {
  const int64_t last = self.dim() - 1;
  Tensor cur = self;
  for (int64_t d : dims) {
    Tensor src = cur.transpose(d, last).contiguous();
    Tensor out = empty(src.sizes(), TensorOptions(src.dtype()));
    cpu::fft_execute(cpu::FftKind::C2C, src, out, IntArrayRef(last), forward);
    cur = out.transpose(d, last);
  }
  return cur.contiguous();
}

Tensor c2c_kernel(const Tensor& self, IntArrayRef dim, int64_t normalization, bool forward) {
  DimVector dims = check_dims("_fft_c2c", self, dim);
  check_precision("_fft_c2c", self.dtype(), true);
  if (dims.empty()) return empty(self.sizes(), TensorOptions(self.dtype())).copy_(self);
  if (self.numel() == 0) return empty(self.sizes(), TensorOptions(self.dtype()));
  return scaled(c2c_dim_by_dim(self, dims, forward), normalization, self.sizes(), dims);
}

Tensor r2c_kernel(const Tensor& self, IntArrayRef dim, int64_t normalization, bool onesided) {
  DimVector dims = check_dims("_fft_r2c", self, dim);
  check_precision("_fft_r2c", self.dtype(), false);
  if (!onesided || dims.empty())  // the full spectrum of a real signal is its complex transform
    return c2c_kernel(self.to(to_complex_type(self.dtype())), dims, normalization, true);
  Tensor out = empty(r2c_sizes(self, dims, true), TensorOptions(to_complex_type(self.dtype())));
  cpu::fft_execute(cpu::FftKind::R2C, self, out, dims, true);
  return scaled(out, normalization, self.sizes(), dims);
}

// Note [Multi-dim c2r]: an inverse c2c over every dim but the last, then a 1-D c2r over the last
// (which reads only the real parts of its DC and, for even n, Nyquist bins). This is what pocketfft
// does for PyTorch, so results agree for inputs that are not exactly Hermitian, and it is the
// composition the derivative in fft_grad.cpp is written for.
Tensor c2r_kernel(const Tensor& self, IntArrayRef dim, int64_t normalization,
                  int64_t last_dim_size) {
  DimVector dims = check_dims("_fft_c2r", self, dim);
  check_precision("_fft_c2r", self.dtype(), true);
  const DimVector sizes = c2r_sizes("_fft_c2r", self, dims, last_dim_size);
  const int64_t last = dims.back();
  BRASA_CHECK(self.size(last) == last_dim_size / 2 + 1, "_fft_c2r: expected ",
              last_dim_size / 2 + 1, " bins along dim ", last, " for ", last_dim_size,
              " output points, got shape ", self.sizes());
  // FFTW's c2r overwrites its input: it gets a fresh tensor either way.
  Tensor scratch = dims.size() > 1 && self.numel() > 0
                       ? c2c_dim_by_dim(self, IntArrayRef(dims).slice(0, dims.size() - 1), false)
                       : self.clone();
  Tensor out = empty(sizes, TensorOptions(to_real_value_type(self.dtype())));
  cpu::fft_execute(cpu::FftKind::C2R, scratch, out, IntArrayRef(last), false);
  return scaled(out, normalization, sizes, dims);
}

}  // namespace

BRASA_REGISTER_KERNEL(fft_c2c_op, c2c_kernel, CPU)
BRASA_REGISTER_KERNEL(fft_c2c_op, c2c_meta, Meta)
BRASA_REGISTER_KERNEL(fft_r2c_op, r2c_kernel, CPU)
BRASA_REGISTER_KERNEL(fft_r2c_op, r2c_meta, Meta)
BRASA_REGISTER_KERNEL(fft_c2r_op, c2r_kernel, CPU)
BRASA_REGISTER_KERNEL(fft_c2r_op, c2r_meta, Meta)

}  // namespace brasa::ops
