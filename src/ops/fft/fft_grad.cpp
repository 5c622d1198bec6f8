// Derivatives of the fft primitives, derived from the transforms as linear maps.
//
// Note [FFT adjoints]
// With Note [Complex gradients] (autograd/engine.cpp), the gradient of a linear map y = A x is
// A^H g, and of y = Re(A x) for complex x it is A^H g again, g being real. Let F be the
// unnormalized DFT over the transformed dims (sign -1) and s the normalization's scale.
//  * c2c: y = s F x (forward) or s F^H x (inverse). F^H is the unnormalized inverse DFT, so the
//    gradient is the c2c of g in the other direction with the same normalization.
//  * r2c: y = s P F x, x real, P keeping the first n / 2 + 1 bins of the last dim. The gradient
//    is Re(s F^H P^T g): g zero-padded back to n bins, inverse c2c, real part.
//  * c2r (Note [Multi-dim c2r] in fft_ops.cpp): y = s R G X, G the unnormalized inverse c2c over
//    all but the last dim, and R the 1-D c2r of the last, y[t] = Re(sum_k c_k X[k] w^(kt)) with
//    w = exp(2 pi i / n), c_k = 2 for the bins whose mirror image was left out
//    (1 <= k <= (n - 1) / 2) and 1 for the DC and, n even, the Nyquist bin. The derivative of
//    Re(a X) is conj(a) (Note [Complex gradients]), so R's adjoint is c times the forward
//    onesided r2c of g, and G^H is the forward c2c: the gradient is c * r2c(g) with the same
//    normalization.

#include "autograd/function_node.h"
#include "brasa/ops/complex.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "ops/fft/fft_ops.h"

namespace brasa::ops {
namespace {

Tensor c2c_ag(const Tensor& self, IntArrayRef dim, int64_t normalization, bool forward) {
  return autograd::record_one_input(
      "FftC2CBackward0", "_fft_c2c", self,
      [&] { return fft_c2c_op().call(self, dim, normalization, forward); },
      [dims = DimVector(dim), normalization, forward](const Tensor& g) {
        return fft_c2c_op().call(g, dims, normalization, !forward);
      });
}

Tensor r2c_ag(const Tensor& self, IntArrayRef dim, int64_t normalization, bool onesided) {
  return autograd::record_one_input(
      "FftR2CBackward0", "_fft_r2c", self,
      [&] { return fft_r2c_op().call(self, dim, normalization, onesided); },
      [dims = DimVector(dim), normalization, onesided,
       sizes = DimVector(self.sizes())](const Tensor& g) {
        Tensor full = g;
        if (onesided && !dims.empty()) {
          const int64_t last = dims.back() < 0 ? dims.back() + int64_t(sizes.size()) : dims.back();
          const int64_t missing = sizes[size_t(last)] - g.size(last);
          if (missing > 0) {
            DimVector pad(g.sizes());
            pad[size_t(last)] = missing;
            full = cat({g, zeros(pad, g.options())}, last);
          }
        }
        return real(fft_c2c_op().call(full, dims, normalization, false));
      });
}

Tensor c2r_ag(const Tensor& self, IntArrayRef dim, int64_t normalization, int64_t last_dim_size) {
  return autograd::record_one_input(
      "FftC2RBackward0", "_fft_c2r", self,
      [&] { return fft_c2r_op().call(self, dim, normalization, last_dim_size); },
      [dims = DimVector(dim), normalization, last_dim_size](const Tensor& g) {
        Tensor gx = fft_r2c_op().call(g, dims, normalization, true);
        const int64_t last = dims.back() < 0 ? dims.back() + g.dim() : dims.back();
        const int64_t bins = gx.size(last), doubled = (last_dim_size - 1) / 2;
        if (doubled == 0) return gx;
        DimVector shape(size_t(g.dim()), 1);
        shape[size_t(last)] = bins;
        Tensor weight = ones({bins}, g.options());  // on g's device
        weight.narrow(0, 1, doubled).fill_(2);
        return gx * weight.reshape(shape);
      });
}

}  // namespace

BRASA_REGISTER_KERNEL(fft_c2c_op, c2c_ag, Autograd)
BRASA_REGISTER_KERNEL(fft_r2c_op, r2c_ag, Autograd)
BRASA_REGISTER_KERNEL(fft_c2r_op, c2r_ag, Autograd)

}  // namespace brasa::ops
