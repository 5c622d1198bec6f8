// at::grid_sampler_2d / 3d: sampling an input at normalised grid points, as a composite of
// gathers weighted by the interpolation coefficients (so autograd differentiates it with respect
// to both input and grid). Coordinates follow PyTorch's grid_sampler_compute_source_index:
// unnormalise, then (bilinear, nearest) apply the padding mode to the coordinate; bicubic applies
// it to each of its 4x4 taps.

#include <cmath>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/resample_functions.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/pointwise.h"

namespace brasa {
namespace {

enum Interpolation : int64_t { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum Padding : int64_t { kZeros = 0, kBorder = 1, kReflection = 2 };

Tensor unnormalize(const Tensor& c, int64_t size, bool align_corners) {
  const auto s = static_cast<double>(size);
  return align_corners ? (c + 1) * ((s - 1) / 2) : ((c + 1) * s - 1) / 2;
}

/// Reflects c into [low, high] given twice the bounds, as PyTorch's reflect_coordinates.
Tensor reflect(const Tensor& c, double twice_low, double twice_high) {
  if (twice_low == twice_high) return zeros_like(c);
  const double min = twice_low / 2, span = (twice_high - twice_low) / 2;
  Tensor in = (c - min).abs();
  Tensor extra = in.fmod(span);
  Tensor even = (in / span).floor().fmod(2).eq(0);
  return where(even, extra + min, span - extra + min);
}

/// The padding mode applied to an unnormalised coordinate (zeros: unchanged).
Tensor pad_coordinate(const Tensor& c, int64_t size, int64_t padding, bool align_corners) {
  const auto s = static_cast<double>(size);
  if (padding == kBorder) return c.clamp(0, s - 1);
  if (padding == kReflection) {
    Tensor r = align_corners ? reflect(c, 0, 2 * (s - 1)) : reflect(c, -1, 2 * s - 1);
    return r.clamp(0, s - 1);
  }
  return c;
}

struct Sampler {
  Tensor flat;                 // input [N, C, P]
  std::vector<int64_t> sizes;  // per coordinate: W, H[, D]
  int64_t padding = kZeros;
  bool align_corners = false;

  /// input values at integer tap positions idx[k] (float tensors [N, Q]) -> [N, C, Q]; taps out
  /// of bounds give 0.
  Tensor taps(const std::vector<Tensor>& idx) const {
    Tensor valid;
    Tensor linear;
    int64_t stride = 1;
    for (size_t k = 0; k < idx.size(); ++k) {
      Tensor in = idx[k].ge(0).logical_and(idx[k].le(static_cast<double>(sizes[k] - 1)));
      valid = valid.defined() ? valid.logical_and(in) : in;
      Tensor term = idx[k].clamp(0, static_cast<double>(sizes[k] - 1)).to(kLong) * stride;
      linear = linear.defined() ? linear + term : term;
      stride *= sizes[k];
    }
    const int64_t n = flat.size(0), c = flat.size(1), q = linear.size(1);
    Tensor g = flat.gather(2, linear.unsqueeze(1).expand({n, c, q}));
    return g * valid.unsqueeze(1).to(flat.scalar_type());
  }

  /// Bicubic taps go through the padding mode one by one (get_value_bounded).
  Tensor bounded_taps(std::vector<Tensor> idx) const {
    for (size_t k = 0; k < idx.size(); ++k)
      idx[k] = pad_coordinate(idx[k], sizes[k], padding, align_corners);
    return taps(idx);
  }
};

/// PyTorch's cubic convolution coefficients (A = -0.75) for the taps at floor - 1 .. floor + 2.
std::vector<Tensor> cubic_weights(const Tensor& t) {
  constexpr double A = -0.75;
  auto near = [](const Tensor& x) { return ((x * (A + 2) - (A + 3)) * x * x) + 1; };
  auto far = [](const Tensor& x) { return ((x * A - 5 * A) * x + 8 * A) * x - 4 * A; };
  return {far(t + 1), near(t), near(1 - t), far(2 - t)};
}

Tensor grid_sample(const char* op, const Tensor& input, const Tensor& grid, int64_t mode,
                   int64_t padding, bool align_corners, int64_t dims) {
  BRASA_CHECK(input.defined() && grid.defined() && input.dim() == dims + 2 &&
                  grid.dim() == dims + 2 && grid.size(0) == input.size(0) && grid.size(-1) == dims,
              op, ": expected input [N, C, *", dims, " spatial dims] and grid [N, *out, ", dims,
              "] with the same N, got ", input.defined() ? input.sizes() : IntArrayRef{}, " and ",
              grid.defined() ? grid.sizes() : IntArrayRef{});
  BRASA_CHECK_TYPE(
      is_floating_type(input.scalar_type()) && grid.scalar_type() == input.scalar_type(), op,
      ": expected floating input and grid of the same dtype, got ", input.scalar_type(), " and ",
      grid.scalar_type());
  BRASA_CHECK(mode >= kBilinear && mode <= (dims == 2 ? kBicubic : kNearest), op,
              ": unsupported interpolation mode ", mode);
  BRASA_CHECK(padding >= kZeros && padding <= kReflection, op, ": unsupported padding mode ",
              padding);
  for (int64_t d = 2; d < input.dim(); ++d)
    BRASA_CHECK(input.size(d) > 0, op, ": expected non-empty spatial dims, got ", input.sizes());
  const int64_t n = input.size(0), channels = input.size(1);
  std::vector<int64_t> out_shape{n, channels};
  for (int64_t d = 1; d <= dims; ++d) out_shape.push_back(grid.size(d));
  Sampler s;
  s.flat = input.reshape({n, channels, -1});
  for (int64_t k = 0; k < dims; ++k) s.sizes.push_back(input.size(input.dim() - 1 - k));
  s.padding = padding;
  s.align_corners = align_corners;
  Tensor g = grid.reshape({n, -1, dims});
  std::vector<Tensor> coords;
  for (int64_t k = 0; k < dims; ++k) {
    Tensor c = unnormalize(g.select(2, k), s.sizes[static_cast<size_t>(k)], align_corners);
    if (mode != kBicubic)
      c = pad_coordinate(c, s.sizes[static_cast<size_t>(k)], padding, align_corners);
    coords.push_back(c);
  }
  Tensor out;
  if (mode == kNearest) {
    std::vector<Tensor> idx;
    for (const Tensor& c : coords) idx.push_back(c.round());
    out = s.taps(idx);
  } else if (mode == kBilinear) {
    std::vector<Tensor> lo, frac;
    for (const Tensor& c : coords) {
      lo.push_back(c.floor());
      frac.push_back(c - lo.back());
    }
    for (int64_t corner = 0; corner < (1 << dims); ++corner) {
      std::vector<Tensor> idx;
      Tensor weight;
      for (int64_t k = 0; k < dims; ++k) {
        const bool up = (corner >> k) & 1;
        const auto kk = static_cast<size_t>(k);
        idx.push_back(up ? lo[kk] + 1 : lo[kk]);
        Tensor w = up ? frac[kk] : 1 - frac[kk];
        weight = weight.defined() ? weight * w : w;
      }
      Tensor term = s.taps(idx) * weight.unsqueeze(1);
      out = out.defined() ? out + term : term;
    }
  } else {  // bicubic, 2-d
    Tensor x0 = coords[0].floor(), y0 = coords[1].floor();
    auto wx = cubic_weights(coords[0] - x0);
    auto wy = cubic_weights(coords[1] - y0);
    for (int64_t j = 0; j < 4; ++j) {
      for (int64_t i = 0; i < 4; ++i) {
        Tensor term =
            s.bounded_taps({x0 + static_cast<double>(i - 1), y0 + static_cast<double>(j - 1)}) *
            (wx[static_cast<size_t>(i)] * wy[static_cast<size_t>(j)]).unsqueeze(1);
        out = out.defined() ? out + term : term;
      }
    }
  }
  return out.reshape(out_shape);
}

}  // namespace

Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  return grid_sample("grid_sampler_2d", input, grid, interpolation_mode, padding_mode,
                     align_corners, 2);
}

Tensor grid_sampler_3d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                       int64_t padding_mode, bool align_corners) {
  return grid_sample("grid_sampler_3d", input, grid, interpolation_mode, padding_mode,
                     align_corners, 3);
}

Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                    int64_t padding_mode, bool align_corners) {
  BRASA_CHECK(input.defined() && (input.dim() == 4 || input.dim() == 5),
              "grid_sampler: expected a 4-d or 5-d input, got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  return input.dim() == 4
             ? grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)
             : grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners);
}

}  // namespace brasa
