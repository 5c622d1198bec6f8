#include "nn_functions.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/nn/activation_functions.h"
#include "brasa/nn/ctc_loss_functions.h"
#include "brasa/nn/distance_functions.h"
#include "brasa/nn/dropout_functions.h"
#include "brasa/nn/functional/embedding.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/functional/pooling.h"
#include "brasa/nn/functional/vision.h"
#include "brasa/nn/loss_functions.h"
#include "brasa/nn/margin_loss_functions.h"
#include "brasa/nn/normalization_functions.h"
#include "brasa/nn/rearrange_functions.h"
#include "brasa/nn/resample_functions.h"
#include "brasa/nn/rnn_functions.h"
#include "brasa/ops/attention.h"
#include "brasa/ops/conv.h"
#include "brasa/ops/linalg.h"
#include "brasa/ops/pool.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using Ints = std::vector<int64_t>;
using OptTensor = std::optional<Tensor>;
const auto kNoGil = nb::call_guard<nb::gil_scoped_release>();

Tensor or_undefined(const OptTensor& t) { return t ? *t : Tensor(); }

void bind_layers(nb::module_& m) {
  m.def(
      "linear",
      [](const Tensor& x, const Tensor& w, const OptTensor& b) {
        return brasa::linear(x, w, or_undefined(b));
      },
      nb::arg("input"), nb::arg("weight"), nb::arg("bias").none(), kNoGil);
  // conv{1,2,3}d with int-list padding, and with padding "same" / "valid".
  auto conv = [&m](const char* name, auto fn, auto fn_str) {
    m.def(
        name,
        [fn](const Tensor& x, const Tensor& w, const OptTensor& b, const Ints& stride,
             const Ints& padding, const Ints& dilation, int64_t groups) {
          return fn(x, w, or_undefined(b), stride, padding, dilation, groups);
        },
        kNoGil);
    m.def(
        name,
        [fn_str](const Tensor& x, const Tensor& w, const OptTensor& b, const Ints& stride,
                 const std::string& padding, const Ints& dilation, int64_t groups) {
          return fn_str(x, w, or_undefined(b), stride, padding, dilation, groups);
        },
        kNoGil);
  };
#define BRASA_CONV(N)                                                                          \
  conv(                                                                                        \
      #N,                                                                                      \
      [](const Tensor& x, const Tensor& w, const Tensor& b, IntArrayRef s, IntArrayRef p,      \
         IntArrayRef d, int64_t g) { return brasa::N(x, w, b, s, p, d, g); },                  \
      [](const Tensor& x, const Tensor& w, const Tensor& b, IntArrayRef s, std::string_view p, \
         IntArrayRef d, int64_t g) { return brasa::N(x, w, b, s, p, d, g); })
  BRASA_CONV(conv1d);
  BRASA_CONV(conv2d);
  BRASA_CONV(conv3d);
#undef BRASA_CONV
#define BRASA_CONV_T(N)                                                                            \
  m.def(                                                                                           \
      #N,                                                                                          \
      [](const Tensor& x, const Tensor& w, const OptTensor& b, const Ints& stride,                 \
         const Ints& padding, const Ints& output_padding, int64_t groups, const Ints& dilation) {  \
        return brasa::N(x, w, or_undefined(b), stride, padding, output_padding, groups, dilation); \
      },                                                                                           \
      kNoGil)
  BRASA_CONV_T(conv_transpose1d);
  BRASA_CONV_T(conv_transpose2d);
  BRASA_CONV_T(conv_transpose3d);
#undef BRASA_CONV_T
#define BRASA_MAX_POOL(N)                                                                          \
  m.def(                                                                                           \
      #N,                                                                                          \
      [](const Tensor& x, const Ints& k, const Ints& s, const Ints& p, const Ints& d, bool ceil) { \
        return brasa::N(x, k, s, p, d, ceil);                                                      \
      },                                                                                           \
      kNoGil)
  BRASA_MAX_POOL(max_pool1d);
  BRASA_MAX_POOL(max_pool2d);
  BRASA_MAX_POOL(max_pool3d);
  BRASA_MAX_POOL(max_pool1d_with_indices);
  BRASA_MAX_POOL(max_pool2d_with_indices);
  BRASA_MAX_POOL(max_pool3d_with_indices);
#undef BRASA_MAX_POOL
  m.def(
      "avg_pool1d",
      [](const Tensor& x, const Ints& k, const Ints& s, const Ints& p, bool ceil, bool count) {
        return brasa::avg_pool1d(x, k, s, p, ceil, count);
      },
      kNoGil);
  m.def(
      "avg_pool2d",
      [](const Tensor& x, const Ints& k, const Ints& s, const Ints& p, bool ceil, bool count,
         std::optional<int64_t> div) { return brasa::avg_pool2d(x, k, s, p, ceil, count, div); },
      nb::arg(), nb::arg(), nb::arg(), nb::arg(), nb::arg(), nb::arg(), nb::arg().none(), kNoGil);
  m.def(
      "avg_pool3d",
      [](const Tensor& x, const Ints& k, const Ints& s, const Ints& p, bool ceil, bool count,
         std::optional<int64_t> div) { return brasa::avg_pool3d(x, k, s, p, ceil, count, div); },
      nb::arg(), nb::arg(), nb::arg(), nb::arg(), nb::arg(), nb::arg(), nb::arg().none(), kNoGil);
  m.def(
      "adaptive_avg_pool1d",
      [](const Tensor& x, const Ints& o) { return brasa::adaptive_avg_pool1d(x, o); }, kNoGil);
  m.def(
      "adaptive_avg_pool2d",
      [](const Tensor& x, const Ints& o) { return brasa::adaptive_avg_pool2d(x, o); }, kNoGil);
  m.def(
      "adaptive_avg_pool3d",
      [](const Tensor& x, const Ints& o) { return brasa::adaptive_avg_pool3d(x, o); }, kNoGil);
  m.def(
      "adaptive_max_pool1d",
      [](const Tensor& x, const Ints& o) { return brasa::adaptive_max_pool1d(x, o); }, kNoGil);
  m.def(
      "adaptive_max_pool2d",
      [](const Tensor& x, const Ints& o) { return brasa::adaptive_max_pool2d(x, o); }, kNoGil);
  m.def(
      "adaptive_max_pool3d",
      [](const Tensor& x, const Ints& o) { return brasa::adaptive_max_pool3d(x, o); }, kNoGil);
  namespace NF = brasa::nn::functional;
  m.def(
      "lp_pool1d",
      [](const Tensor& x, double p, const Ints& k, const Ints& s, bool ceil) {
        return NF::lp_pool1d(x, NF::LPPool1dFuncOptions(p, k).stride(s).ceil_mode(ceil));
      },
      kNoGil);
  m.def(
      "lp_pool2d",
      [](const Tensor& x, double p, const Ints& k, const Ints& s, bool ceil) {
        return NF::lp_pool2d(x, NF::LPPool2dFuncOptions(p, k).stride(s).ceil_mode(ceil));
      },
      kNoGil);
  m.def(
      "local_response_norm",
      [](const Tensor& x, int64_t size, double alpha, double beta, double k) {
        return NF::local_response_norm(
            x, NF::LocalResponseNormFuncOptions(size).alpha(alpha).beta(beta).k(k));
      },
      kNoGil);
  m.def(
      "bilinear",
      [](const Tensor& a, const Tensor& b, const Tensor& w, const OptTensor& bias) {
        return brasa::bilinear(a, b, w, or_undefined(bias));
      },
      nb::arg(), nb::arg(), nb::arg(), nb::arg().none(), kNoGil);
  m.def(
      "channel_shuffle", [](const Tensor& x, int64_t g) { return brasa::channel_shuffle(x, g); },
      kNoGil);
  m.def("pixel_shuffle", &brasa::pixel_shuffle, kNoGil);
  m.def("pixel_unshuffle", &brasa::pixel_unshuffle, kNoGil);
  m.def(
      "pad",
      [](const Tensor& x, const Ints& pad, const std::string& mode, std::optional<double> value) {
        return brasa::pad(x, pad, mode, value);
      },
      nb::arg("input"), nb::arg("pad"), nb::arg("mode") = "constant",
      nb::arg("value").none() = nb::none(), kNoGil);
  // C++'s F::embedding_bag (its checks, a 2-d input as a bag per row); mode "sum"/"mean"/"max".
  m.def(
      "embedding_bag",
      [](const Tensor& input, const Tensor& weight, const OptTensor& offsets,
         std::optional<double> max_norm, double norm_type, bool scale_grad_by_freq,
         const std::string& mode, bool sparse, const OptTensor& per_sample_weights,
         bool include_last_offset, std::optional<int64_t> padding_idx) {
        namespace F = brasa::nn::functional;
        brasa::nn::EmbeddingBagMode m = enumtype::kMean();
        if (mode == "sum") m = enumtype::kSum();
        if (mode == "max") m = enumtype::kMax();
        BRASA_CHECK(mode == "sum" || mode == "mean" || mode == "max",
                    "embedding_bag: mode has to be one of sum, mean or max, got ", mode);
        return F::embedding_bag(input, weight,
                                F::EmbeddingBagFuncOptions()
                                    .offsets(or_undefined(offsets))
                                    .max_norm(max_norm)
                                    .norm_type(norm_type)
                                    .scale_grad_by_freq(scale_grad_by_freq)
                                    .mode(m)
                                    .sparse(sparse)
                                    .per_sample_weights(or_undefined(per_sample_weights))
                                    .include_last_offset(include_last_offset)
                                    .padding_idx(padding_idx));
      },
      nb::arg("input"), nb::arg("weight"), nb::arg("offsets").none(), nb::arg("max_norm").none(),
      nb::arg("norm_type"), nb::arg("scale_grad_by_freq"), nb::arg("mode"), nb::arg("sparse"),
      nb::arg("per_sample_weights").none(), nb::arg("include_last_offset"),
      nb::arg("padding_idx").none(), kNoGil);
}

void bind_normalization(nb::module_& m) {
  m.def(
      "batch_norm",
      [](const Tensor& x, const OptTensor& mean, const OptTensor& var, const OptTensor& w,
         const OptTensor& b, bool training, double momentum, double eps) {
        return brasa::batch_norm(x, w, b, mean, var, training, momentum, eps, true);
      },
      nb::arg(), nb::arg().none(), nb::arg().none(), nb::arg().none(), nb::arg().none(), nb::arg(),
      nb::arg(), nb::arg(), kNoGil);
  m.def(
      "instance_norm",
      [](const Tensor& x, const OptTensor& mean, const OptTensor& var, const OptTensor& w,
         const OptTensor& b, bool use_input_stats, double momentum, double eps) {
        return brasa::instance_norm(x, w, b, mean, var, use_input_stats, momentum, eps, true);
      },
      nb::arg(), nb::arg().none(), nb::arg().none(), nb::arg().none(), nb::arg().none(), nb::arg(),
      nb::arg(), nb::arg(), kNoGil);
  m.def(
      "layer_norm",
      [](const Tensor& x, const Ints& shape, const OptTensor& w, const OptTensor& b, double eps) {
        return brasa::layer_norm(x, shape, w, b, eps);
      },
      nb::arg(), nb::arg(), nb::arg().none(), nb::arg().none(), nb::arg(), kNoGil);
  m.def(
      "group_norm",
      [](const Tensor& x, int64_t groups, const OptTensor& w, const OptTensor& b, double eps) {
        return brasa::group_norm(x, groups, w, b, eps);
      },
      nb::arg(), nb::arg(), nb::arg().none(), nb::arg().none(), nb::arg(), kNoGil);
  m.def(
      "dropout", [](const Tensor& x, double p, bool t) { return brasa::dropout(x, p, t); }, kNoGil);
  m.def(
      "feature_dropout",
      [](const Tensor& x, double p, bool t) { return brasa::feature_dropout(x, p, t); }, kNoGil);
  m.def(
      "alpha_dropout",
      [](const Tensor& x, double p, bool t) { return brasa::alpha_dropout(x, p, t); }, kNoGil);
  // In place: the Python caller returns its own object.
  m.def(
      "dropout_", [](Tensor x, double p, bool t) { brasa::dropout_(x, p, t); }, kNoGil);
  m.def(
      "feature_dropout_", [](Tensor x, double p, bool t) { brasa::feature_dropout_(x, p, t); },
      kNoGil);
  m.def(
      "alpha_dropout_", [](Tensor x, double p, bool t) { brasa::alpha_dropout_(x, p, t); }, kNoGil);
}

void bind_losses(nb::module_& m) {
#define BRASA_PAIR_LOSS(N) \
  m.def(                   \
      #N, [](const Tensor& x, const Tensor& y, int64_t r) { return brasa::N(x, y, r); }, kNoGil)
  BRASA_PAIR_LOSS(mse_loss);
  BRASA_PAIR_LOSS(l1_loss);
#undef BRASA_PAIR_LOSS
  m.def(
      "smooth_l1_loss",
      [](const Tensor& x, const Tensor& y, int64_t r, double beta) {
        return brasa::smooth_l1_loss(x, y, r, beta);
      },
      kNoGil);
  m.def(
      "huber_loss",
      [](const Tensor& x, const Tensor& y, int64_t r, double delta) {
        return brasa::huber_loss(x, y, r, delta);
      },
      kNoGil);
  m.def(
      "nll_loss",
      [](const Tensor& x, const Tensor& y, const OptTensor& w, int64_t r, int64_t ignore) {
        return brasa::nll_loss(x, y, w, r, ignore);
      },
      nb::arg(), nb::arg(), nb::arg().none(), nb::arg(), nb::arg(), kNoGil);
  m.def(
      "cross_entropy",
      [](const Tensor& x, const Tensor& y, const OptTensor& w, int64_t r, int64_t ignore,
         double smoothing) { return brasa::cross_entropy_loss(x, y, w, r, ignore, smoothing); },
      nb::arg(), nb::arg(), nb::arg().none(), nb::arg(), nb::arg(), nb::arg(), kNoGil);
  m.def(
      "binary_cross_entropy",
      [](const Tensor& x, const Tensor& y, const OptTensor& w, int64_t r) {
        return brasa::binary_cross_entropy(x, y, w, r);
      },
      nb::arg(), nb::arg(), nb::arg().none(), nb::arg(), kNoGil);
  m.def(
      "binary_cross_entropy_with_logits",
      [](const Tensor& x, const Tensor& y, const OptTensor& w, const OptTensor& pw, int64_t r) {
        return brasa::binary_cross_entropy_with_logits(x, y, w, pw, r);
      },
      nb::arg(), nb::arg(), nb::arg().none(), nb::arg().none(), nb::arg(), kNoGil);
  m.def(
      "kl_div",
      [](const Tensor& x, const Tensor& y, int64_t r, bool log_target) {
        return brasa::kl_div(x, y, r, log_target);
      },
      kNoGil);
  m.def(
      "margin_ranking_loss",
      [](const Tensor& a, const Tensor& b, const Tensor& y, double margin, int64_t r) {
        return brasa::margin_ranking_loss(a, b, y, margin, r);
      },
      kNoGil);
  m.def(
      "cosine_embedding_loss",
      [](const Tensor& a, const Tensor& b, const Tensor& y, double margin, int64_t r) {
        return brasa::cosine_embedding_loss(a, b, y, margin, r);
      },
      kNoGil);
  m.def(
      "pairwise_distance",
      [](const Tensor& a, const Tensor& b, double p, double eps, bool keepdim) {
        return brasa::pairwise_distance(a, b, p, eps, keepdim);
      },
      kNoGil);
  m.def(
      "cosine_similarity",
      [](const Tensor& a, const Tensor& b, int64_t dim, double eps) {
        return brasa::cosine_similarity(a, b, dim, eps);
      },
      kNoGil);
  m.def(
      "pdist", [](const Tensor& x, double p) { return brasa::pdist(x, p); }, kNoGil);
}

void bind_margin_losses(nb::module_& m) {
  m.def(
      "hinge_embedding_loss",
      [](const Tensor& x, const Tensor& y, double margin, int64_t r) {
        return brasa::hinge_embedding_loss(x, y, margin, r);
      },
      kNoGil);
  m.def(
      "soft_margin_loss",
      [](const Tensor& x, const Tensor& y, int64_t r) { return brasa::soft_margin_loss(x, y, r); },
      kNoGil);
  m.def(
      "multi_margin_loss",
      [](const Tensor& x, const Tensor& y, double p, double margin, const OptTensor& w, int64_t r) {
        return brasa::multi_margin_loss(x, y, p, margin, w, r);
      },
      nb::arg(), nb::arg(), nb::arg(), nb::arg(), nb::arg().none(), nb::arg(), kNoGil);
  m.def(
      "multilabel_margin_loss",
      [](const Tensor& x, const Tensor& y, int64_t r) {
        return brasa::multilabel_margin_loss(x, y, r);
      },
      kNoGil);
  m.def(
      "triplet_margin_loss",
      [](const Tensor& a, const Tensor& p, const Tensor& n, double margin, double norm, double eps,
         bool swap,
         int64_t r) { return brasa::triplet_margin_loss(a, p, n, margin, norm, eps, swap, r); },
      kNoGil);
  m.def(
      "poisson_nll_loss",
      [](const Tensor& x, const Tensor& y, bool log_input, bool full, double eps, int64_t r) {
        return brasa::poisson_nll_loss(x, y, log_input, full, eps, r);
      },
      kNoGil);
  m.def(
      "ctc_loss",
      [](const Tensor& lp, const Tensor& targets, const Tensor& in_len, const Tensor& tgt_len,
         int64_t blank, int64_t r, bool zero_inf) {
        return brasa::ctc_loss(lp, targets, in_len, tgt_len, blank, r, zero_inf);
      },
      kNoGil);
  m.def(
      "ctc_loss",
      [](const Tensor& lp, const Tensor& targets, const Ints& in_len, const Ints& tgt_len,
         int64_t blank, int64_t r, bool zero_inf) {
        return brasa::ctc_loss(lp, targets, in_len, tgt_len, blank, r, zero_inf);
      },
      kNoGil);
}

void bind_activations(nb::module_& m) {
  // aten's positional signatures and defaults (torch._C._nn's: the conformance cases call them
  // through this module); the in-place forms return their input, as torch's do.
#define BRASA_UNARY(N)                                          \
  m.def(                                                        \
      #N, [](const Tensor& x) { return brasa::N(x); }, kNoGil); \
  m.def(                                                        \
      #N "_",                                                   \
      [](Tensor x) {                                            \
        brasa::N##_(x);                                         \
        return x;                                               \
      },                                                        \
      kNoGil)
  BRASA_UNARY(relu6);
  BRASA_UNARY(selu);
  BRASA_UNARY(silu);
  BRASA_UNARY(mish);
  BRASA_UNARY(hardsigmoid);
  BRASA_UNARY(hardswish);
#undef BRASA_UNARY
  m.def(
      "log_sigmoid", [](const Tensor& x) { return brasa::log_sigmoid(x); }, kNoGil);
  m.def(
      "elu",
      [](const Tensor& x, double a, double scale, double input_scale) {
        return brasa::elu(x, a, scale, input_scale);
      },
      nb::arg("input"), nb::arg("alpha") = 1.0, nb::arg("scale") = 1.0,
      nb::arg("input_scale") = 1.0, kNoGil);
  m.def(
      "elu_",
      [](Tensor x, double a) {
        brasa::elu_(x, a);
        return x;
      },
      nb::arg("input"), nb::arg("alpha") = 1.0, kNoGil);
  m.def(
      "gelu",
      [](const Tensor& x, const std::string& approximate) { return brasa::gelu(x, approximate); },
      nb::arg("input"), nb::kw_only(), nb::arg("approximate") = "none", kNoGil);
  m.def(
      "celu", [](const Tensor& x, double a) { return brasa::celu(x, a); }, kNoGil);
  m.def(
      "celu_",
      [](Tensor x, double a) {
        brasa::celu_(x, a);
        return x;
      },
      kNoGil);
  m.def(
      "leaky_relu", [](const Tensor& x, double s) { return brasa::leaky_relu(x, s); },
      nb::arg("input"), nb::arg("negative_slope") = 0.01, kNoGil);
  m.def(
      "leaky_relu_",
      [](Tensor x, double s) {
        brasa::leaky_relu_(x, s);
        return x;
      },
      nb::arg("input"), nb::arg("negative_slope") = 0.01, kNoGil);
  m.def(
      "hardtanh", [](const Tensor& x, double lo, double hi) { return brasa::hardtanh(x, lo, hi); },
      nb::arg("input"), nb::arg("min_val") = -1.0, nb::arg("max_val") = 1.0, kNoGil);
  m.def(
      "hardtanh_",
      [](Tensor x, double lo, double hi) {
        brasa::hardtanh_(x, lo, hi);
        return x;
      },
      nb::arg("input"), nb::arg("min_val") = -1.0, nb::arg("max_val") = 1.0, kNoGil);
  m.def(
      "threshold", [](const Tensor& x, double t, double v) { return brasa::threshold(x, t, v); },
      kNoGil);
  m.def(
      "threshold_",
      [](Tensor x, double t, double v) {
        brasa::threshold_(x, t, v);
        return x;
      },
      kNoGil);
  m.def(
      "hardshrink", [](const Tensor& x, double l) { return brasa::hardshrink(x, l); }, kNoGil);
  m.def(
      "softshrink", [](const Tensor& x, double l) { return brasa::softshrink(x, l); }, kNoGil);
  m.def(
      "softplus",
      [](const Tensor& x, double beta, double threshold) {
        return brasa::softplus(x, beta, threshold);
      },
      kNoGil);
  m.def(
      "glu", [](const Tensor& x, int64_t dim) { return brasa::glu(x, dim); }, nb::arg("input"),
      nb::arg("dim") = -1, kNoGil);
  m.def(
      "prelu", [](const Tensor& x, const Tensor& w) { return brasa::prelu(x, w); }, kNoGil);
  m.def(
      "rrelu",
      [](const Tensor& x, double lower, double upper, bool training) {
        return brasa::rrelu(x, lower, upper, training);
      },
      kNoGil);
}

/// An optional argument defaulting to None, as aten's `T? name=None`.
auto none(const char* name) { return nb::arg(name).none() = nb::none(); }

void bind_recurrent(nb::module_& m) {
  using Tensors = std::vector<Tensor>;
  m.def(
      "lstm",
      [](const Tensor& x, const Tensors& hx, const Tensors& params, bool has_biases, int64_t layers,
         double dropout, bool train, bool bidirectional, bool batch_first) {
        return brasa::lstm(x, hx, params, has_biases, layers, dropout, train, bidirectional,
                           batch_first);
      },
      kNoGil);
#define BRASA_RNN(N)                                                                         \
  m.def(                                                                                     \
      #N,                                                                                    \
      [](const Tensor& x, const Tensor& hx, const Tensors& params, bool has_biases,          \
         int64_t layers, double dropout, bool train, bool bidirectional, bool batch_first) { \
        return brasa::N(x, hx, params, has_biases, layers, dropout, train, bidirectional,    \
                        batch_first);                                                        \
      },                                                                                     \
      kNoGil)
  BRASA_RNN(gru);
  BRASA_RNN(rnn_tanh);
  BRASA_RNN(rnn_relu);
#undef BRASA_RNN
  m.def(
      "lstm_cell",
      [](const Tensor& x, const Tensors& hx, const Tensor& w_ih, const Tensor& w_hh,
         const OptTensor& b_ih,
         const OptTensor& b_hh) { return brasa::lstm_cell(x, hx, w_ih, w_hh, b_ih, b_hh); },
      nb::arg("input"), nb::arg("hx"), nb::arg("w_ih"), nb::arg("w_hh"), none("b_ih"), none("b_hh"),
      kNoGil);
#define BRASA_CELL(N)                                                                  \
  m.def(                                                                               \
      #N,                                                                              \
      [](const Tensor& x, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,    \
         const OptTensor& b_ih,                                                        \
         const OptTensor& b_hh) { return brasa::N(x, hx, w_ih, w_hh, b_ih, b_hh); },   \
      nb::arg("input"), nb::arg("hx"), nb::arg("w_ih"), nb::arg("w_hh"), none("b_ih"), \
      none("b_hh"), kNoGil)
  BRASA_CELL(gru_cell);
  BRASA_CELL(rnn_tanh_cell);
  BRASA_CELL(rnn_relu_cell);
#undef BRASA_CELL
}

/// aten's upsample_*.vec overload: (input, output_size or None, align_corners, scale_factors or
/// None), tried after the one with an int list and per-dimension scales.
template <typename Fn>
void bind_upsample_vec(nb::module_& m, const char* name, Fn fn) {
  m.def(
      name,
      [fn](const Tensor& x, const std::optional<Ints>& out, bool align,
           const std::optional<std::vector<double>>& scales) {
        return fn(x, out ? OptionalIntArrayRef(*out) : std::nullopt, align,
                  scales ? OptionalArrayRef<double>(*scales) : std::nullopt);
      },
      nb::arg("input"), nb::arg("output_size").none(), nb::arg("align_corners"),
      nb::arg("scale_factors").none(), kNoGil);
}

void bind_resampling(nb::module_& m) {
  using OptD = std::optional<double>;
  using VecFn = Tensor (*)(const Tensor&, OptionalIntArrayRef, bool, OptionalArrayRef<double>);
  const auto in = nb::arg("input"), size = nb::arg("output_size"), ac = nb::arg("align_corners");
  m.def(
      "upsample_linear1d",
      [](const Tensor& x, const Ints& out, bool align, OptD s) {
        return brasa::upsample_linear1d(x, out, align, s);
      },
      in, size, ac, none("scales"), kNoGil);
  bind_upsample_vec(m, "upsample_linear1d", static_cast<VecFn>(&brasa::upsample_linear1d));
  m.def(
      "upsample_bicubic2d",
      [](const Tensor& x, const Ints& out, bool align, OptD sh, OptD sw) {
        return brasa::upsample_bicubic2d(x, out, align, sh, sw);
      },
      in, size, ac, none("scales_h"), none("scales_w"), kNoGil);
  bind_upsample_vec(m, "upsample_bicubic2d", static_cast<VecFn>(&brasa::upsample_bicubic2d));
  m.def(
      "upsample_trilinear3d",
      [](const Tensor& x, const Ints& out, bool align, OptD sd, OptD sh, OptD sw) {
        return brasa::upsample_trilinear3d(x, out, align, sd, sh, sw);
      },
      in, size, ac, none("scales_d"), none("scales_h"), none("scales_w"), kNoGil);
  bind_upsample_vec(m, "upsample_trilinear3d", static_cast<VecFn>(&brasa::upsample_trilinear3d));
  m.def(
      "max_unpool2d",
      [](const Tensor& x, const Tensor& idx, const Ints& out) {
        return brasa::max_unpool2d(x, idx, out);
      },
      kNoGil);
  m.def(
      "max_unpool3d",
      [](const Tensor& x, const Tensor& idx, const Ints& out, const Ints& stride,
         const Ints& padding) { return brasa::max_unpool3d(x, idx, out, stride, padding); },
      kNoGil);
  m.def(
      "pad_sequence",
      [](const std::vector<Tensor>& seqs, bool batch_first, double value) {
        return brasa::pad_sequence(seqs, batch_first, value);
      },
      nb::arg("sequences"), nb::arg("batch_first") = false, nb::arg("padding_value") = 0.0, kNoGil);
  m.def(
      "grid_sampler",
      [](const Tensor& x, const Tensor& grid, int64_t interp, int64_t pad, bool align) {
        return brasa::grid_sampler(x, grid, interp, pad, align);
      },
      kNoGil);
  m.def(
      "affine_grid",
      [](const Tensor& theta, const Ints& size, bool align) {
        return brasa::nn::functional::affine_grid(theta, size, align);
      },
      nb::arg("theta"), nb::arg("size"), nb::arg("align_corners"), kNoGil);
  m.def(
      "affine_grid_generator",
      [](const Tensor& theta, const Ints& size, bool align) {
        return brasa::affine_grid_generator(theta, size, align);
      },
      kNoGil);
}

}  // namespace

void bind_nn_functions(nb::module_& m) {
  nb::module_ nn =
      m.def_submodule("_nn", "brasa's C++ nn-level functions (Note [nn functions in Python])");
  bind_layers(nn);
  bind_normalization(nn);
  bind_losses(nn);
  bind_margin_losses(nn);
  bind_activations(nn);
  bind_recurrent(nn);
  bind_resampling(nn);
}

}  // namespace brasa::python
