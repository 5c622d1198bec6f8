// libtorch's at:: functions that are C++ free functions of libbrasa but not registry ops, bound
// with aten's signatures and defaults (Note [aten functions in Python]). The GIL is released
// around each C++ call.
#include "aten_functions.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <tuple>
#include <vector>

#include "brasa/nn/activation_functions.h"
#include "brasa/nn/loss_functions.h"
#include "brasa/nn/margin_loss_functions.h"
#include "brasa/nn/modules/local_response_norm.h"
#include "brasa/nn/normalization_functions.h"
#include "brasa/nn/rearrange_functions.h"
#include "brasa/nn/resample_functions.h"
#include "brasa/ops/conv_variants.h"
#include "brasa/ops/dense_tensor_lists.h"
#include "brasa/ops/linalg_lu.h"
#include "brasa/ops/linalg_solvers.h"
#include "brasa/ops/shaping.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using Ints = std::vector<int64_t>;
using Tensors = std::vector<Tensor>;
using OptTensor = std::optional<Tensor>;
const auto kNoGil = nb::call_guard<nb::gil_scoped_release>();

auto none(const char* name) { return nb::arg(name).none() = nb::none(); }

/// The nll_loss family and the other losses torch._C._nn spells as aten does (reduction an int).
void bind_nn_losses(nb::module_& nn) {
  using Loss = Tensor (*)(T, T, const OptTensor&, int64_t, int64_t);
  for (auto [name, fn] : {std::pair<const char*, Loss>{"nll_loss_nd", &brasa::nll_loss_nd},
                          std::pair<const char*, Loss>{"nll_loss2d", &brasa::nll_loss2d}}) {
    nn.def(
        name,
        [fn](T x, T target, const OptTensor& w, int64_t reduction, int64_t ignore_index) {
          return fn(x, target, w, reduction, ignore_index);
        },
        nb::arg("input"), nb::arg("target"), none("weight"), nb::arg("reduction") = 1,
        nb::arg("ignore_index") = -100, kNoGil);
  }
  nn.def(
      "cross_entropy_loss",
      [](T x, T target, const OptTensor& w, int64_t reduction, int64_t ignore_index,
         double smoothing) {
        return brasa::cross_entropy_loss(x, target, w, reduction, ignore_index, smoothing);
      },
      nb::arg("input"), nb::arg("target"), none("weight"), nb::arg("reduction") = 1,
      nb::arg("ignore_index") = -100, nb::arg("label_smoothing") = 0.0, kNoGil);
  nn.def(
      "flatten_dense_tensors", [](const Tensors& ts) { return brasa::flatten_dense_tensors(ts); },
      nb::arg("tensors"), kNoGil);
  nn.def(
      "unflatten_dense_tensors",
      [](T flat, const Tensors& ts) { return brasa::unflatten_dense_tensors(flat, ts); },
      nb::arg("flat"), nb::arg("tensors"), kNoGil);
}

/// libtorch's named convolution kernels and fractional max pooling (torch._C._nn's names).
void bind_nn_kernels(nb::module_& nn) {
  using Conv = Tensor (*)(T, T, IntArrayRef, const OptTensor&, IntArrayRef, IntArrayRef);
  for (auto [name, fn] : {std::pair<const char*, Conv>{"thnn_conv2d", &brasa::thnn_conv2d},
                          std::pair<const char*, Conv>{"slow_conv3d", &brasa::slow_conv3d}}) {
    nn.def(
        name,
        [fn](T x, T w, const Ints& k, const OptTensor& b, const Ints& stride, const Ints& pad) {
          return fn(x, w, k, b, stride, pad);
        },
        nb::arg("input"), nb::arg("weight"), nb::arg("kernel_size"), none("bias"),
        nb::arg("stride") = Ints{1}, nb::arg("padding") = Ints{0}, kNoGil);
  }
  using Dilated =
      Tensor (*)(T, T, IntArrayRef, const OptTensor&, IntArrayRef, IntArrayRef, IntArrayRef);
  for (auto [name, fn] :
       {std::pair<const char*, Dilated>{"slow_conv_dilated2d", &brasa::slow_conv_dilated2d},
        std::pair<const char*, Dilated>{"slow_conv_dilated3d", &brasa::slow_conv_dilated3d}}) {
    nn.def(
        name,
        [fn](T x, T w, const Ints& k, const OptTensor& b, const Ints& stride, const Ints& pad,
             const Ints& dilation) { return fn(x, w, k, b, stride, pad, dilation); },
        nb::arg("input"), nb::arg("weight"), nb::arg("kernel_size"), none("bias"),
        nb::arg("stride") = Ints{1}, nb::arg("padding") = Ints{0}, nb::arg("dilation") = Ints{1},
        kNoGil);
  }
  using Transposed = Tensor (*)(T, T, IntArrayRef, const OptTensor&, IntArrayRef, IntArrayRef,
                                IntArrayRef, IntArrayRef);
  for (auto [name, fn] :
       {std::pair<const char*, Transposed>{"slow_conv_transpose2d", &brasa::slow_conv_transpose2d},
        std::pair<const char*, Transposed>{"slow_conv_transpose3d",
                                           &brasa::slow_conv_transpose3d}}) {
    nn.def(
        name,
        [fn](T x, T w, const Ints& k, const OptTensor& b, const Ints& stride, const Ints& pad,
             const Ints& out_pad,
             const Ints& dilation) { return fn(x, w, k, b, stride, pad, out_pad, dilation); },
        nb::arg("input"), nb::arg("weight"), nb::arg("kernel_size"), none("bias"),
        nb::arg("stride") = Ints{1}, nb::arg("padding") = Ints{0},
        nb::arg("output_padding") = Ints{0}, nb::arg("dilation") = Ints{1}, kNoGil);
  }
  using Fractional = std::tuple<Tensor, Tensor> (*)(T, IntArrayRef, IntArrayRef, T);
  for (auto [name, fn] :
       {std::pair<const char*, Fractional>{"fractional_max_pool2d", &brasa::fractional_max_pool2d},
        std::pair<const char*, Fractional>{"fractional_max_pool3d",
                                           &brasa::fractional_max_pool3d}}) {
    nn.def(
        name,
        [fn](T x, const Ints& k, const Ints& out, T samples) { return fn(x, k, out, samples); },
        nb::arg("input"), nb::arg("kernel_size"), nb::arg("output_size"), nb::arg("random_samples"),
        kNoGil);
  }
  // nn.CrossMapLRN2d's computation: the C++ module's own forward and backward.
  nn.def(
      "_cross_map_lrn2d",
      [](T x, int64_t size, double alpha, double beta, int64_t k) {
        brasa::nn::CrossMapLRN2d m(
            brasa::nn::CrossMapLRN2dOptions(size).alpha(alpha).beta(beta).k(k));
        return m->forward(x);
      },
      nb::arg("input"), nb::arg("size"), nb::arg("alpha"), nb::arg("beta"), nb::arg("k"), kNoGil);
}

/// Functions torch has at the top level with aten's signatures (re-exported by brasa/_nn_aten.py).
void bind_top_level(nb::module_& aten) {
  aten.def(
      "native_batch_norm",
      [](T x, const OptTensor& w, const OptTensor& b, const OptTensor& mean, const OptTensor& var,
         bool training, double momentum, double eps) {
        return brasa::native_batch_norm(x, w, b, mean, var, training, momentum, eps);
      },
      nb::arg("input"), nb::arg("weight").none(), nb::arg("bias").none(),
      nb::arg("running_mean").none(), nb::arg("running_var").none(), nb::arg("training"),
      nb::arg("momentum"), nb::arg("eps"), kNoGil);
  aten.def(
      "native_layer_norm",
      [](T x, const Ints& shape, const OptTensor& w, const OptTensor& b, double eps) {
        return brasa::native_layer_norm(x, shape, w, b, eps);
      },
      nb::arg("input"), nb::arg("normalized_shape"), nb::arg("weight").none(),
      nb::arg("bias").none(), nb::arg("eps"), kNoGil);
  aten.def(
      "native_group_norm",
      [](T x, const OptTensor& w, const OptTensor& b, int64_t n, int64_t c, int64_t hxw,
         int64_t group,
         double eps) { return brasa::native_group_norm(x, w, b, n, c, hxw, group, eps); },
      nb::arg("input"), nb::arg("weight").none(), nb::arg("bias").none(), nb::arg("N"),
      nb::arg("C"), nb::arg("HxW"), nb::arg("group"), nb::arg("eps"), kNoGil);
  aten.def(
      "batch_norm_update_stats",
      [](T x, const OptTensor& mean, const OptTensor& var, double momentum) {
        return brasa::batch_norm_update_stats(x, mean, var, momentum);
      },
      nb::arg("input"), nb::arg("running_mean").none(), nb::arg("running_var").none(),
      nb::arg("momentum"), kNoGil);
  aten.def(
      "conv_tbc", [](T x, T w, T b, int64_t pad) { return brasa::conv_tbc(x, w, b, pad); },
      nb::arg("input"), nb::arg("weight"), nb::arg("bias"), nb::arg("pad") = 0, kNoGil);
  aten.def(
      "native_channel_shuffle",
      [](T x, int64_t groups) { return brasa::native_channel_shuffle(x, groups); },
      nb::arg("input"), nb::arg("groups"), kNoGil);
  aten.def(
      "lu_solve", [](T b, T lu, T piv) { return brasa::lu_solve(b, lu, piv); }, nb::arg("input"),
      nb::arg("LU_data"), nb::arg("LU_pivots"), kNoGil);
  aten.def(
      "symeig", [](T x, bool vectors, bool upper) { return brasa::symeig(x, vectors, upper); },
      nb::arg("input"), nb::arg("eigenvectors") = false, nb::arg("upper") = true, kNoGil);
  aten.def(
      "logit_",
      [](Tensor& x, std::optional<double> eps) -> Tensor { return brasa::logit_(x, eps); },
      nb::arg("input"), none("eps"), kNoGil);
}

/// aten-only functions: brasa.ops.aten finds them here (python/brasa/ops.py).
void bind_aten_only(nb::module_& aten) {
  aten.def(
      "unique_consecutive",
      [](T x, bool inverse, bool counts, std::optional<int64_t> dim) {
        return brasa::unique_consecutive(x, inverse, counts, dim);
      },
      nb::arg("input"), nb::arg("return_inverse") = false, nb::arg("return_counts") = false,
      none("dim"), kNoGil);
  aten.def(
      "unique_dim",
      [](T x, int64_t dim, bool sorted, bool inverse, bool counts) {
        return brasa::unique_dim(x, dim, sorted, inverse, counts);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("sorted") = true, nb::arg("return_inverse") = false,
      nb::arg("return_counts") = false, kNoGil);
  aten.def(
      "unique_dim_consecutive",
      [](T x, int64_t dim, bool inverse, bool counts) {
        return brasa::unique_dim_consecutive(x, dim, inverse, counts);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("return_inverse") = false,
      nb::arg("return_counts") = false, kNoGil);
  aten.def(
      "nonzero_numpy", [](T x) { return brasa::nonzero_numpy(x); }, nb::arg("input"), kNoGil);
  using Forward = std::tuple<Tensor, Tensor> (*)(T, T, const OptTensor&, int64_t, int64_t);
  for (auto [name, fn] :
       {std::pair<const char*, Forward>{"nll_loss_forward", &brasa::nll_loss_forward},
        std::pair<const char*, Forward>{"nll_loss2d_forward", &brasa::nll_loss2d_forward}}) {
    aten.def(
        name,
        [fn](T x, T target, const OptTensor& w, int64_t reduction, int64_t ignore_index) {
          return fn(x, target, w, reduction, ignore_index);
        },
        nb::arg("input"), nb::arg("target"), nb::arg("weight").none(), nb::arg("reduction"),
        nb::arg("ignore_index"), kNoGil);
  }
  aten.def(
      "multilabel_margin_loss_forward",
      [](T x, T target, int64_t reduction) {
        return brasa::multilabel_margin_loss_forward(x, target, reduction);
      },
      nb::arg("input"), nb::arg("target"), nb::arg("reduction"), kNoGil);
  aten.def(
      "log_sigmoid_forward", [](T x) { return brasa::log_sigmoid_forward(x); }, nb::arg("input"),
      kNoGil);
  aten.def(
      "glu_jvp", [](T glu, T x, T dx, int64_t dim) { return brasa::glu_jvp(glu, x, dx, dim); },
      nb::arg("glu"), nb::arg("x"), nb::arg("dx"), nb::arg("dim"), kNoGil);
  aten.def(
      "slow_conv3d_forward",
      [](T x, T w, const Ints& k, const OptTensor& b, const Ints& stride, const Ints& pad) {
        return brasa::slow_conv3d_forward(x, w, k, b, stride, pad);
      },
      nb::arg("input"), nb::arg("weight"), nb::arg("kernel_size"), nb::arg("bias").none(),
      nb::arg("stride"), nb::arg("padding"), kNoGil);
}

}  // namespace

void bind_aten_functions(nb::module_& m) {
  nb::module_ nn = nb::borrow<nb::module_>(m.attr("_nn"));
  bind_nn_losses(nn);
  bind_nn_kernels(nn);
  nb::module_ aten = m.def_submodule(
      "_aten",
      "libtorch's at:: functions that are not registry ops (Note [aten functions in Python])");
  bind_top_level(aten);
  bind_aten_only(aten);
}

}  // namespace brasa::python
