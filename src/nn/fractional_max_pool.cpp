// at::fractional_max_pool2d / 3d: the pooling windows are placed by the given random samples
// (one per plane and spatial dim) exactly as libtorch's kernel places them, then the maximum of
// each window is taken with a gather and max (so autograd routes the gradient to the maxima).

#include <cstdint>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/resample_functions.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/tensor_data.h"

namespace brasa {
namespace {

/// Window starts along one dim, in the samples' precision T as libtorch computes them.
template <class T>
std::vector<int64_t> intervals(T sample, int64_t in, int64_t out, int64_t pool) {
  std::vector<int64_t> starts(static_cast<size_t>(out));
  if (out > 1) {
    const T alpha = static_cast<T>(in - pool) / static_cast<T>(out - 1);
    for (int64_t i = 0; i < out - 1; ++i)
      starts[static_cast<size_t>(i)] = static_cast<int64_t>((static_cast<T>(i) + sample) * alpha) -
                                       static_cast<int64_t>(sample * alpha);
  }
  starts.back() = in - pool;
  return starts;
}

std::tuple<Tensor, Tensor> fractional_max_pool(const char* op, const Tensor& self,
                                               IntArrayRef kernel_size, IntArrayRef output_size,
                                               const Tensor& random_samples, int64_t dims) {
  BRASA_CHECK(self.defined() && (self.dim() == dims + 1 || self.dim() == dims + 2), op,
              ": expected an input of ", dims + 1, " or ", dims + 2, " dims, got ",
              self.defined() ? self.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(is_floating_type(self.scalar_type()), op, ": expected a floating input, got ",
                   self.scalar_type());
  BRASA_CHECK(static_cast<int64_t>(kernel_size.size()) == dims &&
                  static_cast<int64_t>(output_size.size()) == dims,
              op, ": expected kernel_size and output_size of ", dims, " elements, got ",
              kernel_size, " and ", output_size);
  const bool batched = self.dim() == dims + 2;
  Tensor x = batched ? self : self.unsqueeze(0);
  const int64_t n = x.size(0), c = x.size(1);
  std::vector<int64_t> in(x.sizes().begin() + 2, x.sizes().end());
  for (int64_t d = 0; d < dims; ++d) {
    const auto k = static_cast<size_t>(d);
    BRASA_CHECK(
        output_size[k] > 0 && kernel_size[k] > 0 && output_size[k] + kernel_size[k] - 1 <= in[k],
        op, ": output_size ", output_size, " plus kernel_size ", kernel_size,
        " - 1 must fit the input's spatial sizes ", IntArrayRef(in));
  }
  BRASA_CHECK(random_samples.defined() && random_samples.dim() == 3 &&
                  random_samples.size(0) == n && random_samples.size(1) == c &&
                  random_samples.size(2) == dims,
              op, ": expected random_samples of shape [", n, ", ", c, ", ", dims, "], got ",
              random_samples.defined() ? random_samples.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(is_floating_type(random_samples.scalar_type()), op,
                   ": expected floating random_samples, got ", random_samples.scalar_type());
  // libtorch's kernel reads the samples in the input's dtype.
  Tensor samples = random_samples.to(self.scalar_type() == kDouble ? kDouble : kFloat).contiguous();
  int64_t out_numel = 1, window = 1, plane = 1;
  for (int64_t d = 0; d < dims; ++d) {
    out_numel *= output_size[static_cast<size_t>(d)];
    window *= kernel_size[static_cast<size_t>(d)];
    plane *= in[static_cast<size_t>(d)];
  }
  // index[p, o, w]: the flat position in plane p of element w of output o's window.
  std::vector<int64_t> index(static_cast<size_t>(n * c * out_numel * window));
  size_t at = 0;
  for (int64_t p = 0; p < n * c; ++p) {
    std::vector<std::vector<int64_t>> starts;
    for (int64_t d = 0; d < dims; ++d) {
      // 2-d: sample 0 places W and sample 1 H; 3-d: samples 0, 1, 2 place T, H, W.
      const int64_t s = dims == 2 ? 1 - d : d;
      const auto k = static_cast<size_t>(d);
      starts.push_back(samples.scalar_type() == kDouble
                           ? intervals(samples.reshape({-1})[p * dims + s].item<double>(), in[k],
                                       output_size[k], kernel_size[k])
                           : intervals(samples.reshape({-1})[p * dims + s].item<float>(), in[k],
                                       output_size[k], kernel_size[k]));
    }
    for (int64_t o = 0; o < out_numel; ++o) {
      std::vector<int64_t> pos(static_cast<size_t>(dims));
      for (int64_t d = dims - 1, rest = o; d >= 0; --d) {
        const auto k = static_cast<size_t>(d);
        pos[k] = starts[k][static_cast<size_t>(rest % output_size[k])];
        rest /= output_size[k];
      }
      for (int64_t w = 0; w < window; ++w) {
        int64_t flat = 0;
        for (int64_t d = 0, rest = w, stride = plane; d < dims; ++d) {
          const auto k = static_cast<size_t>(d);
          int64_t kstride = 1;
          for (int64_t e = d + 1; e < dims; ++e) kstride *= kernel_size[static_cast<size_t>(e)];
          stride /= in[k];
          flat += (pos[k] + rest / kstride) * stride;
          rest %= kstride;
        }
        index[at++] = flat;
      }
    }
  }
  Tensor idx = detail::tensor_from_array(index.data(), static_cast<int64_t>(index.size()), kLong)
                   .reshape({n, c, out_numel * window})
                   .to(x.device());
  Tensor vals = x.reshape({n, c, plane}).gather(2, idx).reshape({n, c, out_numel, window});
  auto [out, arg] = vals.max(3);
  Tensor indices = idx.reshape({n, c, out_numel, window}).gather(3, arg.unsqueeze(3)).squeeze(3);
  std::vector<int64_t> shape{n, c};
  shape.insert(shape.end(), output_size.begin(), output_size.end());
  out = out.reshape(shape);
  indices = indices.reshape(shape);
  if (!batched) return {out.squeeze(0), indices.squeeze(0)};
  return {out, indices};
}

}  // namespace

std::tuple<Tensor, Tensor> fractional_max_pool2d(const Tensor& self, IntArrayRef kernel_size,
                                                 IntArrayRef output_size,
                                                 const Tensor& random_samples) {
  return fractional_max_pool("fractional_max_pool2d", self, kernel_size, output_size,
                             random_samples, 2);
}

std::tuple<Tensor, Tensor> fractional_max_pool3d(const Tensor& self, IntArrayRef kernel_size,
                                                 IntArrayRef output_size,
                                                 const Tensor& random_samples) {
  return fractional_max_pool("fractional_max_pool3d", self, kernel_size, output_size,
                             random_samples, 3);
}

}  // namespace brasa
