// interpolate, pad, pixel_shuffle, fold and unfold functionals over the pool family's ops.
#include <cmath>

#include "brasa/core/error.h"
#include "brasa/nn/functional/fold.h"
#include "brasa/nn/functional/padding.h"
#include "brasa/nn/functional/pixelshuffle.h"
#include "brasa/nn/functional/upsampling.h"
#include "brasa/ops/pool.h"
#include "nn/functional/interpolate_separable.h"

namespace brasa::nn::functional {
namespace {

template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

const char* mode_name(const InterpolateFuncOptions::mode_t& m) {
  return nn::visit(Overloaded{[](enumtype::kNearest) { return "nearest"; },
                              [](enumtype::kLinear) { return "linear"; },
                              [](enumtype::kBilinear) { return "bilinear"; },
                              [](enumtype::kBicubic) { return "bicubic"; },
                              [](enumtype::kTrilinear) { return "trilinear"; },
                              [](enumtype::kArea) { return "area"; },
                              [](enumtype::kNearestExact) { return "nearest-exact"; }},
                   m);
}

}  // namespace

Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& o) {
  BRASA_CHECK(input.defined(), "interpolate: got an undefined tensor");
  const int64_t dim = input.dim() - 2;
  const char* mode = mode_name(o.mode());
  const bool nearest = nn::holds_alternative<enumtype::kNearest>(o.mode());
  const bool bilinear = nn::holds_alternative<enumtype::kBilinear>(o.mode());
  BRASA_CHECK(dim >= 1 && dim <= 3, "interpolate: expected a 3-D, 4-D or 5-D input [N, C, *], got ",
              input.dim(), "-D input");
  BRASA_CHECK(!(nearest && o.align_corners()),
              "interpolate: align_corners option can only be set "
              "with the interpolating modes: linear | bilinear | bicubic | trilinear");
  BRASA_CHECK(o.size().has_value() != o.scale_factor().has_value(),
              "interpolate: exactly one of size or scale_factor must be defined");
  // libtorch computes antialiased bilinear/bicubic downsampling here; brasa has no such kernel,
  // and ignoring the option would silently give the plain interpolation.
  BRASA_CHECK(!o.antialias() || bilinear || nn::holds_alternative<enumtype::kBicubic>(o.mode()),
              "interpolate: anti-alias option is only supported for bilinear and bicubic modes");
  BRASA_CHECK_NOT_IMPLEMENTED(!o.antialias(), "interpolate: antialias=true (mode ", mode,
                              ") is not implemented in brasa");
  std::vector<int64_t> out;
  std::vector<std::optional<double>> scales(static_cast<size_t>(dim));
  if (o.size()) {
    const auto& s = *o.size();
    BRASA_CHECK(s.size() == 1 || static_cast<int64_t>(s.size()) == dim, "interpolate: size ",
                IntArrayRef(s), " does not match the ", dim, " spatial dims of input ",
                input.sizes());
    for (int64_t i = 0; i < dim; ++i)
      out.push_back(s.size() == 1 ? s[0] : s[static_cast<size_t>(i)]);
  } else {
    const auto& f = *o.scale_factor();
    BRASA_CHECK(f.size() == 1 || static_cast<int64_t>(f.size()) == dim, "interpolate: ", f.size(),
                " scale factors do not match the ", dim, " spatial dims of input ", input.sizes());
    for (int64_t i = 0; i < dim; ++i) {
      const double s = f.size() == 1 ? f[0] : f[static_cast<size_t>(i)];
      out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(input.size(2 + i)) * s)));
      if (!o.recompute_scale_factor().value_or(false)) scales[static_cast<size_t>(i)] = s;
    }
  }
  auto sc = [&](size_t i) { return scales[i]; };
  if (nearest) {
    if (dim == 1) return upsample_nearest1d(input, out, sc(0));
    if (dim == 2) return upsample_nearest2d(input, out, sc(0), sc(1));
    return upsample_nearest3d(input, out, sc(0), sc(1), sc(2));
  }
  if (bilinear) {
    BRASA_CHECK(dim == 2, "interpolate: got ", input.dim(),
                "-D input, but bilinear mode needs 4-D "
                "input");
    return upsample_bilinear2d(input, out, o.align_corners().value_or(false), sc(0), sc(1));
  }
  const bool linear = nn::holds_alternative<enumtype::kLinear>(o.mode());
  const bool trilinear = nn::holds_alternative<enumtype::kTrilinear>(o.mode());
  const bool bicubic = nn::holds_alternative<enumtype::kBicubic>(o.mode());
  if (linear || trilinear || bicubic) {
    const int64_t needs = linear ? 1 : trilinear ? 3 : 2;
    BRASA_CHECK(dim == needs, "interpolate: got ", input.dim(), "-D input, but ", mode,
                " mode needs ", needs + 2, "-D input");
    BRASA_CHECK_TYPE(is_floating_type(input.scalar_type()), "interpolate: ", mode,
                     " mode needs a floating input, got ", input.scalar_type());
    return detail::interpolate_separable(input, out, o.align_corners().value_or(false), scales,
                                         bicubic);
  }
  BRASA_CHECK_NOT_IMPLEMENTED(false, "interpolate: mode '", mode, "' is not implemented");
  return {};
}

Tensor pad(const Tensor& input, const PadFuncOptions& o) {
  const std::vector<int64_t>& p = o.pad();
  if (nn::holds_alternative<enumtype::kConstant>(o.mode()))
    return constant_pad_nd(input, p, o.value());
  BRASA_CHECK(input.defined(), "pad: got an undefined tensor");
  BRASA_CHECK(p.size() % 2 == 0, "pad: padding length must be divisible by 2, got ", p.size());
  const int64_t n = static_cast<int64_t>(p.size()) / 2;
  BRASA_CHECK(n >= 1 && n <= 3 && (input.dim() == n + 1 || input.dim() == n + 2),
              "pad: padding "
              "of ",
              p.size(), " values in a non-constant mode needs a ", n + 1, "-D or ", n + 2,
              "-D input, got shape ", input.sizes());
  BRASA_CHECK(!nn::holds_alternative<enumtype::kCircular>(o.mode()) || input.dim() == n + 2,
              "pad: circular padding of ", n, " dims needs a ", n + 2,
              "-D (batched) input, got "
              "shape ",
              input.sizes());
  return nn::visit(Overloaded{[&](enumtype::kReflect) {
                                return n == 1   ? reflection_pad1d(input, p)
                                       : n == 2 ? reflection_pad2d(input, p)
                                                : reflection_pad3d(input, p);
                              },
                              [&](enumtype::kReplicate) {
                                return n == 1   ? replication_pad1d(input, p)
                                       : n == 2 ? replication_pad2d(input, p)
                                                : replication_pad3d(input, p);
                              },
                              [&](enumtype::kCircular) {
                                return n == 1   ? circular_pad1d(input, p)
                                       : n == 2 ? circular_pad2d(input, p)
                                                : circular_pad3d(input, p);
                              },
                              [&](enumtype::kConstant) { return Tensor(); }},
                   o.mode());
}

Tensor pixel_shuffle(const Tensor& input, const PixelShuffleFuncOptions& o) {
  return brasa::pixel_shuffle(input, o.upscale_factor());
}
Tensor pixel_unshuffle(const Tensor& input, const PixelUnshuffleFuncOptions& o) {
  return brasa::pixel_unshuffle(input, o.downscale_factor());
}

// libtorch's F::unfold takes only batched input and F::fold also unbatched, narrower than the ops
// (and than Python's F.unfold, which is im2col itself); the words are libtorch's.
Tensor unfold(const Tensor& input, const UnfoldFuncOptions& o) {
  BRASA_CHECK(input.dim() == 4, "unfold: Input Error: Only 4D input Tensors are supported (got ",
              input.dim(), "D)");
  return im2col(input, o.kernel_size(), o.dilation(), o.padding(), o.stride());
}
Tensor fold(const Tensor& input, const FoldFuncOptions& o) {
  BRASA_CHECK(input.dim() == 2 || input.dim() == 3,
              "fold: Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
              "(got ",
              input.dim(), "D)");
  return col2im(input, o.output_size(), o.kernel_size(), o.dilation(), o.padding(), o.stride());
}

}  // namespace brasa::nn::functional
