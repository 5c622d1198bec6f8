// Op map of the pool family (cases_pool.py): torch.nn.functional pooling/resampling calls through
// brasa::nn::functional's option structs, and the backward ops against PyTorch's autograd (args:
// input, grad_output; the forward's keywords).

#include "brasa/nn/functional.h"
#include "brasa/ops/pool.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

namespace F = brasa::nn::functional;

template <size_t D>
ExpandingArray<D> arr(const Args& a, const char* name, int64_t fallback) {
  const auto v = a.kw_ints(name);
  if (!v) return ExpandingArray<D>(fallback);
  return ExpandingArray<D>(*v);
}

template <size_t D>
nn::MaxPoolOptions<D> max_opts(const Args& a) {
  nn::MaxPoolOptions<D> o(arr<D>(a, "kernel_size", 1));
  if (a.has("stride")) o.stride(arr<D>(a, "stride", 1));
  return o.padding(arr<D>(a, "padding", 0))
      .dilation(arr<D>(a, "dilation", 1))
      .ceil_mode(a.kw_bool("ceil_mode").value_or(false));
}

template <size_t D>
nn::AvgPoolOptions<D> avg_opts(const Args& a) {
  nn::AvgPoolOptions<D> o(arr<D>(a, "kernel_size", 1));
  if (a.has("stride")) o.stride(arr<D>(a, "stride", 1));
  return o.padding(arr<D>(a, "padding", 0))
      .ceil_mode(a.kw_bool("ceil_mode").value_or(false))
      .count_include_pad(a.kw_bool("count_include_pad").value_or(true))
      .divisor_override(a.kw_int("divisor_override"));
}

std::vector<int64_t> out_size(const Args& a) { return *a.kw_ints("output_size"); }

template <typename R>
Value maybe_indices(const Args& a, const R& r) {
  if (a.kw_bool("return_indices").value_or(false))
    return Value::of_tensors({std::get<0>(r), std::get<1>(r)});
  return std::get<0>(r);
}

F::InterpolateFuncOptions interp_opts(const Args& a) {
  F::InterpolateFuncOptions o;
  if (a.has("size")) o.size(*a.kw_ints("size"));
  if (a.has("scale_factor")) o.scale_factor(std::vector<double>{*a.kw_real("scale_factor")});
  const auto mode = a.kw_str("mode").value_or("nearest");
  if (mode == "bilinear") o.mode(kBilinear);
  if (mode == "linear") o.mode(kLinear);
  if (mode == "bicubic") o.mode(kBicubic);
  if (mode == "trilinear") o.mode(kTrilinear);
  if (a.has("align_corners")) o.align_corners(a.kw_bool("align_corners"));
  if (a.has("recompute_scale_factor"))
    o.recompute_scale_factor(a.kw_bool("recompute_scale_factor"));
  return o;
}

F::PadFuncOptions pad_opts(const Args& a) {
  F::PadFuncOptions o(*a.kw_ints("pad"));
  const auto m = a.kw_str("mode").value_or("constant");
  if (m == "reflect") o.mode(kReflect);
  if (m == "replicate") o.mode(kReplicate);
  if (m == "circular") o.mode(kCircular);
  return o.value(a.kw_real("value").value_or(0));
}

/// Spatial sizes of a grad_output, and scales as interpolate passes them to the upsample ops.
struct Upsample {
  std::vector<int64_t> out, in;
  std::optional<double> s;
  bool align;
};
Upsample upsample_args(const Args& a) {
  Upsample u;
  const Tensor x = a.tensor(0), g = a.tensor(1);
  u.in = x.sizes().vec();
  for (int64_t i = 2; i < g.dim(); ++i) u.out.push_back(g.size(i));
  if (!a.kw_bool("recompute_scale_factor").value_or(false)) u.s = a.kw_real("scale_factor");
  u.align = a.kw_bool("align_corners").value_or(false);
  return u;
}

// Python's F.unfold / F.fold are im2col / col2im themselves (libtorch's C++ F::unfold takes only
// batched input), so the cases call the ops.
Tensor unfold_case(const Tensor& x, const Args& a) {
  return im2col(x, arr<2>(a, "kernel_size", 1), arr<2>(a, "dilation", 1), arr<2>(a, "padding", 0),
                arr<2>(a, "stride", 1));
}
Tensor fold_case(const Tensor& x, const Args& a, ExpandingArray<2> output_size) {
  return col2im(x, output_size, arr<2>(a, "kernel_size", 1), arr<2>(a, "dilation", 1),
                arr<2>(a, "padding", 0), arr<2>(a, "stride", 1));
}

#define MAX_POOL(N)                                                                               \
  {"nn.max_pool" #N "d",                                                                          \
   [](const Args& a) -> Value {                                                                   \
     return maybe_indices(a, F::max_pool##N##d_with_indices(a.tensor(0), max_opts<N>(a)));        \
   }},                                                                                            \
  {                                                                                               \
    "max_pool" #N "d_with_indices_backward", [](const Args& a) -> Value {                         \
      const auto o = max_opts<N>(a);                                                              \
      const Tensor x = a.tensor(0);                                                               \
      const Tensor idx = std::get<1>(F::max_pool##N##d_with_indices(x, o));                       \
      return max_pool##N##d_with_indices_backward(a.tensor(1), x, o.kernel_size(), o.stride(),    \
                                                  o.padding(), o.dilation(), o.ceil_mode(), idx); \
    }                                                                                             \
  }

#define AVG_POOL(N, ...)                                                                    \
  {"nn.avg_pool" #N "d",                                                                    \
   [](const Args& a) -> Value { return F::avg_pool##N##d(a.tensor(0), avg_opts<N>(a)); }},  \
  {                                                                                         \
    "avg_pool" #N "d_backward", [](const Args& a) -> Value {                                \
      const auto o = avg_opts<N>(a);                                                        \
      return avg_pool##N##d_backward(a.tensor(1), a.tensor(0), o.kernel_size(), o.stride(), \
                                     o.padding(), o.ceil_mode(),                            \
                                     o.count_include_pad() __VA_OPT__(, ) __VA_ARGS__);     \
    }                                                                                       \
  }

#define ADAPTIVE(N)                                                                           \
  {"nn.adaptive_avg_pool" #N "d",                                                             \
   [](const Args& a) -> Value { return adaptive_avg_pool##N##d(a.tensor(0), out_size(a)); }}, \
      {"adaptive_avg_pool" #N "d_backward",                                                   \
       [](const Args& a) -> Value {                                                           \
         return adaptive_avg_pool##N##d_backward(a.tensor(1), a.tensor(0));                   \
       }},                                                                                    \
      {"nn.adaptive_max_pool" #N "d",                                                         \
       [](const Args& a) -> Value {                                                           \
         return maybe_indices(a, adaptive_max_pool##N##d(a.tensor(0), out_size(a)));          \
       }},                                                                                    \
  {                                                                                           \
    "adaptive_max_pool" #N "d_backward", [](const Args& a) -> Value {                         \
      const Tensor idx = std::get<1>(adaptive_max_pool##N##d(a.tensor(0), out_size(a)));      \
      return adaptive_max_pool##N##d_backward(a.tensor(1), a.tensor(0), idx);                 \
    }                                                                                         \
  }

#define PAD_BACKWARD(name)                                                                     \
  {                                                                                            \
#name "_backward",                                                                         \
        [](const Args& a)                                                                      \
             -> Value { return name##_backward(a.tensor(1), a.tensor(0), *a.kw_ints("pad")); } \
  }

const OpTable kPool(
    "pool",
    {
        MAX_POOL(1),
        MAX_POOL(2),
        MAX_POOL(3),
        AVG_POOL(1),
        AVG_POOL(2, o.divisor_override()),
        AVG_POOL(3, o.divisor_override()),
        ADAPTIVE(1),
        ADAPTIVE(2),
        {"nn.interpolate",
         [](const Args& a) -> Value { return F::interpolate(a.tensor(0), interp_opts(a)); }},
        {"upsample_nearest1d_backward",
         [](const Args& a) -> Value {
           const Upsample u = upsample_args(a);
           return upsample_nearest1d_backward(a.tensor(1), u.out, u.in, u.s);
         }},
        {"upsample_nearest2d_backward",
         [](const Args& a) -> Value {
           const Upsample u = upsample_args(a);
           return upsample_nearest2d_backward(a.tensor(1), u.out, u.in, u.s, u.s);
         }},
        {"upsample_bilinear2d_backward",
         [](const Args& a) -> Value {
           const Upsample u = upsample_args(a);
           return upsample_bilinear2d_backward(a.tensor(1), u.out, u.in, u.align, u.s, u.s);
         }},
        {"nn.pad", [](const Args& a) -> Value { return F::pad(a.tensor(0), pad_opts(a)); }},
        PAD_BACKWARD(reflection_pad1d),
        PAD_BACKWARD(reflection_pad2d),
        PAD_BACKWARD(reflection_pad3d),
        PAD_BACKWARD(replication_pad1d),
        PAD_BACKWARD(replication_pad2d),
        PAD_BACKWARD(replication_pad3d),
        PAD_BACKWARD(circular_pad1d),
        PAD_BACKWARD(circular_pad2d),
        PAD_BACKWARD(circular_pad3d),
        {"nn.pixel_shuffle",
         [](const Args& a) -> Value {
           return F::pixel_shuffle(a.tensor(0),
                                   F::PixelShuffleFuncOptions(*a.kw_int("upscale_factor")));
         }},
        {"nn.pixel_unshuffle",
         [](const Args& a) -> Value {
           return F::pixel_unshuffle(a.tensor(0),
                                     F::PixelUnshuffleFuncOptions(*a.kw_int("downscale_factor")));
         }},
        {"nn.unfold", [](const Args& a) -> Value { return unfold_case(a.tensor(0), a); }},
        {"nn.unfold_backward",
         [](const Args& a) -> Value {
           const Tensor x = a.tensor(0);
           return fold_case(a.tensor(1), a, {x.size(-2), x.size(-1)});
         }},
        {"nn.fold",
         [](const Args& a) -> Value {
           return fold_case(a.tensor(0), a, *a.kw_ints("output_size"));
         }},
        {"nn.fold_backward", [](const Args& a) -> Value { return unfold_case(a.tensor(1), a); }},
    });

}  // namespace
}  // namespace brasa::conformance
