// Transforms of Hermitian-symmetric signals, from the real-signal ones: hfft* is irfft* of the
// conjugate and ihfft* the conjugate of rfft*, each with the normalisation's direction swapped
// (hfft is a forward transform that irfft computes as an inverse one). Autograd differentiates
// them through conj, rfft* and irfft*.
#include "brasa/core/error.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/fft.h"

namespace brasa {
namespace {

/// The norm that scales an inverse transform as `norm` scales the forward one, and back.
FftNorm swapped(FftNorm norm) {
  const std::string_view n = norm.value_or("backward");
  if (n == "backward") return "forward";
  if (n == "forward") return "backward";
  return norm;  // "ortho", or a bad name for the transform to reject
}

Tensor conj_if_complex(const Tensor& t) { return t.is_complex() ? conj(t) : t; }

}  // namespace

Tensor fft_hfft(const Tensor& self, std::optional<int64_t> n, int64_t dim, FftNorm norm) {
  return fft_irfft(conj_if_complex(self), n, dim, swapped(norm));
}

Tensor fft_ihfft(const Tensor& self, std::optional<int64_t> n, int64_t dim, FftNorm norm) {
  BRASA_CHECK_TYPE(!self.is_complex(), "ihfft expects a real input tensor, but got ", self.dtype());
  return conj(fft_rfft(self, n, dim, swapped(norm)));
}

Tensor fft_hfftn(const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm) {
  return fft_irfftn(conj_if_complex(self), s, dim, swapped(norm));
}

Tensor fft_ihfftn(const Tensor& self, OptionalDims s, OptionalDims dim, FftNorm norm) {
  BRASA_CHECK_TYPE(!self.is_complex(), "ihfftn expects a real input tensor, but got ",
                   self.dtype());
  return conj(fft_rfftn(self, s, dim, swapped(norm)));
}

Tensor fft_hfft2(const Tensor& self, OptionalDims s, IntArrayRef dim, FftNorm norm) {
  return fft_hfftn(self, s, dim, norm);
}

Tensor fft_ihfft2(const Tensor& self, OptionalDims s, IntArrayRef dim, FftNorm norm) {
  return fft_ihfftn(self, s, dim, norm);
}

}  // namespace brasa
