// Op map of the nnops family (cases_nnops.py): the at:: nn-level ops with libtorch's positional
// arguments (activations, normalisations, distances, losses, padding, channel shuffle, windows).

#include <tuple>
#include <vector>

#include "brasa/nn/activation_functions.h"
#include "brasa/nn/distance_functions.h"
#include "brasa/nn/gelu_backward.h"
#include "brasa/nn/loss_functions.h"
#include "brasa/nn/margin_loss_functions.h"
#include "brasa/nn/normalization_functions.h"
#include "brasa/nn/rearrange_functions.h"
#include "brasa/ops/window.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

Scalar scalar_or(const Args& a, size_t i, const Scalar& d) { return given(a, i) ? a.scalar(i) : d; }

template <class... T>
Value tuple_value(const std::tuple<T...>& t) {
  return std::apply([](const auto&... ts) { return Value::of_tensors({ts...}); }, t);
}

/// Unary activation: its extra positional Scalar arguments, with libtorch's defaults.
#define BRASA_ACT(name)                                                    \
  {                                                                        \
#name, [](const Args& a) -> Value { return brasa::name(a.tensor(0)); } \
  }
#define BRASA_ACT_INPLACE(name)                        \
  {                                                    \
#name, [](const Args& a) -> Value {                  \
     Tensor t = a.tensor(0);                             \
     return brasa::name(t);                              \
   } \
  }

const OpTable kNNOps(
    "nnops",
    {
        // ---- activations ----
        BRASA_ACT(relu6),
        BRASA_ACT(selu),
        BRASA_ACT(silu),
        BRASA_ACT(mish),
        BRASA_ACT(hardsigmoid),
        BRASA_ACT(hardswish),
        BRASA_ACT(log_sigmoid),
        BRASA_ACT_INPLACE(relu6_),
        BRASA_ACT_INPLACE(selu_),
        BRASA_ACT_INPLACE(silu_),
        BRASA_ACT_INPLACE(mish_),
        BRASA_ACT_INPLACE(hardsigmoid_),
        BRASA_ACT_INPLACE(hardswish_),
        {"elu",
         [](const Args& a) -> Value {
           return brasa::elu(a.tensor(0), scalar_or(a, 1, 1), scalar_or(a, 2, 1),
                             scalar_or(a, 3, 1));
         }},
        {"elu_",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           return brasa::elu_(t, scalar_or(a, 1, 1));
         }},
        {"celu",
         [](const Args& a) -> Value { return brasa::celu(a.tensor(0), scalar_or(a, 1, 1.0)); }},
        {"celu_",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           return brasa::celu_(t, a.scalar(1));
         }},
        {"gelu",
         [](const Args& a) -> Value {
           return given(a, 1) ? brasa::gelu(a.tensor(0), a.at(1).s) : brasa::gelu(a.tensor(0));
         }},
        {"gelu_",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           return brasa::gelu_(t, a.at(1).s);
         }},
        {"gelu_backward",
         [](const Args& a) -> Value {
           return given(a, 2) ? brasa::gelu_backward(a.tensor(0), a.tensor(1), a.at(2).s)
                              : brasa::gelu_backward(a.tensor(0), a.tensor(1));
         }},
        {"hardshrink",
         [](const Args& a) -> Value {
           return brasa::hardshrink(a.tensor(0), scalar_or(a, 1, 0.5));
         }},
        {"softshrink",
         [](const Args& a) -> Value {
           return brasa::softshrink(a.tensor(0), scalar_or(a, 1, 0.5));
         }},
        {"hardtanh",
         [](const Args& a) -> Value {
           return brasa::hardtanh(a.tensor(0), scalar_or(a, 1, -1), scalar_or(a, 2, 1));
         }},
        {"hardtanh_",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           return brasa::hardtanh_(t, a.scalar(1), a.scalar(2));
         }},
        {"leaky_relu",
         [](const Args& a) -> Value {
           return brasa::leaky_relu(a.tensor(0), scalar_or(a, 1, 0.01));
         }},
        {"leaky_relu_",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           return brasa::leaky_relu_(t, a.scalar(1));
         }},
        {"log_sigmoid_forward",
         [](const Args& a) -> Value {
           return tuple_value(brasa::log_sigmoid_forward(a.tensor(0)));
         }},
        {"logit_",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           return brasa::logit_(t, a.real(1));
         }},
        {"prelu", [](const Args& a) -> Value { return brasa::prelu(a.tensor(0), a.tensor(1)); }},
        {"rrelu",
         [](const Args& a) -> Value {
           return brasa::rrelu(a.tensor(0), scalar_or(a, 1, 0.125),
                               scalar_or(a, 2, 0.3333333333333333), given(a, 3) && flag(a, 3));
         }},
        {"rrelu_",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           return brasa::rrelu_(t);
         }},
        {"softplus",
         [](const Args& a) -> Value {
           return brasa::softplus(a.tensor(0), scalar_or(a, 1, 1), scalar_or(a, 2, 20));
         }},
        {"threshold",
         [](const Args& a) -> Value {
           return brasa::threshold(a.tensor(0), a.scalar(1), a.scalar(2));
         }},
        {"threshold_",
         [](const Args& a) -> Value {
           Tensor t = a.tensor(0);
           return brasa::threshold_(t, a.scalar(1), a.scalar(2));
         }},
        {"glu",
         [](const Args& a) -> Value {
           return brasa::glu(a.tensor(0), given(a, 1) ? a.integer(1) : -1);
         }},
        {"glu_jvp",
         [](const Args& a) -> Value {
           return brasa::glu_jvp(a.tensor(0), a.tensor(1), a.tensor(2), a.integer(3));
         }},
        // ---- normalisation ----
        {"layer_norm",
         [](const Args& a) -> Value {
           return brasa::layer_norm(a.tensor(0), a.ints(1), opt(a, 2), opt(a, 3),
                                    given(a, 4) ? a.real(4) : 1e-5);
         }},
        {"native_layer_norm",
         [](const Args& a) -> Value {
           return tuple_value(
               brasa::native_layer_norm(a.tensor(0), a.ints(1), opt(a, 2), opt(a, 3), a.real(4)));
         }},
        {"group_norm",
         [](const Args& a) -> Value {
           return brasa::group_norm(a.tensor(0), a.integer(1), opt(a, 2), opt(a, 3),
                                    given(a, 4) ? a.real(4) : 1e-5);
         }},
        {"native_group_norm",
         [](const Args& a) -> Value {
           return tuple_value(brasa::native_group_norm(a.tensor(0), opt(a, 1), opt(a, 2),
                                                       a.integer(3), a.integer(4), a.integer(5),
                                                       a.integer(6), a.real(7)));
         }},
        {"batch_norm",
         [](const Args& a) -> Value {
           return brasa::batch_norm(a.tensor(0), opt(a, 1), opt(a, 2), opt(a, 3), opt(a, 4),
                                    flag(a, 5), a.real(6), a.real(7), flag(a, 8));
         }},
        {"native_batch_norm",
         [](const Args& a) -> Value {
           return tuple_value(brasa::native_batch_norm(a.tensor(0), opt(a, 1), opt(a, 2), opt(a, 3),
                                                       opt(a, 4), flag(a, 5), a.real(6),
                                                       a.real(7)));
         }},
        {"instance_norm",
         [](const Args& a) -> Value {
           return brasa::instance_norm(a.tensor(0), opt(a, 1), opt(a, 2), opt(a, 3), opt(a, 4),
                                       flag(a, 5), a.real(6), a.real(7), flag(a, 8));
         }},
        {"batch_norm_update_stats",
         [](const Args& a) -> Value {
           return tuple_value(
               brasa::batch_norm_update_stats(a.tensor(0), opt(a, 1), opt(a, 2), a.real(3)));
         }},
        // renorm: mapped in ops_mathops.cpp (brasa/ops/statistics.h); its cases here use it
        // ---- distances ----
        {"pairwise_distance",
         [](const Args& a) -> Value {
           return brasa::pairwise_distance(a.tensor(0), a.tensor(1), given(a, 2) ? a.real(2) : 2.0,
                                           given(a, 3) ? a.real(3) : 1e-6,
                                           given(a, 4) && flag(a, 4));
         }},
        {"cosine_similarity",
         [](const Args& a) -> Value {
           return brasa::cosine_similarity(a.tensor(0), a.tensor(1), given(a, 2) ? a.integer(2) : 1,
                                           given(a, 3) ? a.real(3) : 1e-8);
         }},
        {"pdist",
         [](const Args& a) -> Value {
           return brasa::pdist(a.tensor(0), given(a, 1) ? a.real(1) : 2.0);
         }},
        {"dist",
         [](const Args& a) -> Value {
           return brasa::dist(a.tensor(0), a.tensor(1), scalar_or(a, 2, 2));
         }},
        // ---- losses ----
        {"hinge_embedding_loss",
         [](const Args& a) -> Value {
           return brasa::hinge_embedding_loss(a.tensor(0), a.tensor(1), a.real(2), a.integer(3));
         }},
        {"soft_margin_loss",
         [](const Args& a) -> Value {
           return brasa::soft_margin_loss(a.tensor(0), a.tensor(1), a.integer(2));
         }},
        {"multi_margin_loss",
         [](const Args& a) -> Value {
           return brasa::multi_margin_loss(a.tensor(0), a.tensor(1), a.scalar(2), a.scalar(3),
                                           opt(a, 4), a.integer(5));
         }},
        {"multilabel_margin_loss",
         [](const Args& a) -> Value {
           return brasa::multilabel_margin_loss(a.tensor(0), a.tensor(1), a.integer(2));
         }},
        {"multilabel_margin_loss_forward",
         [](const Args& a) -> Value {
           return tuple_value(
               brasa::multilabel_margin_loss_forward(a.tensor(0), a.tensor(1), a.integer(2)));
         }},
        {"triplet_margin_loss",
         [](const Args& a) -> Value {
           return brasa::triplet_margin_loss(a.tensor(0), a.tensor(1), a.tensor(2), a.real(3),
                                             a.real(4), a.real(5), flag(a, 6), a.integer(7));
         }},
        {"poisson_nll_loss",
         [](const Args& a) -> Value {
           return brasa::poisson_nll_loss(a.tensor(0), a.tensor(1), flag(a, 2), flag(a, 3),
                                          a.real(4), a.integer(5));
         }},
        {"nll_loss_forward",
         [](const Args& a) -> Value {
           return tuple_value(brasa::nll_loss_forward(a.tensor(0), a.tensor(1), opt(a, 2),
                                                      a.integer(3), a.integer(4)));
         }},
        {"nll_loss2d_forward",
         [](const Args& a) -> Value {
           return tuple_value(brasa::nll_loss2d_forward(a.tensor(0), a.tensor(1), opt(a, 2),
                                                        a.integer(3), a.integer(4)));
         }},
        {"nll_loss_nd",
         [](const Args& a) -> Value {
           return given(a, 2) || a.size() > 2
                      ? brasa::nll_loss_nd(a.tensor(0), a.tensor(1), opt(a, 2), a.integer(3),
                                           a.integer(4))
                      : brasa::nll_loss_nd(a.tensor(0), a.tensor(1));
         }},
        // ---- padding, channel shuffle ----
        {"pad_sequence",
         [](const Args& a) -> Value {
           std::vector<Tensor> seqs;
           for (const Value& v : a.at(0).list) seqs.push_back(v.tensor);
           return given(a, 1) ? brasa::pad_sequence(seqs, flag(a, 1), a.real(2))
                              : brasa::pad_sequence(seqs);
         }},
        {"pad",
         [](const Args& a) -> Value {
           const std::string mode = given(a, 2) ? a.at(2).s : "constant";
           return brasa::pad(a.tensor(0), a.ints(1), mode,
                             given(a, 3) ? std::optional<double>(a.real(3)) : std::nullopt);
         }},
        {"channel_shuffle",
         [](const Args& a) -> Value { return brasa::channel_shuffle(a.tensor(0), a.integer(1)); }},
        {"native_channel_shuffle",
         [](const Args& a) -> Value {
           return brasa::native_channel_shuffle(a.tensor(0), a.integer(1));
         }},
        // ---- windows: (length[, periodic[, alpha or beta[, beta]]]), dtype keyword ----
        {"hann_window",
         [](const Args& a) -> Value {
           return a.size() > 1 ? brasa::hann_window(a.integer(0), flag(a, 1), a.options())
                               : brasa::hann_window(a.integer(0), a.options());
         }},
        {"hamming_window",
         [](const Args& a) -> Value {
           switch (a.size()) {
             case 1: return brasa::hamming_window(a.integer(0), a.options());
             case 2: return brasa::hamming_window(a.integer(0), flag(a, 1), a.options());
             case 3: return brasa::hamming_window(a.integer(0), flag(a, 1), a.real(2), a.options());
             default:
               return brasa::hamming_window(a.integer(0), flag(a, 1), a.real(2), a.real(3),
                                            a.options());
           }
         }},
        {"blackman_window",
         [](const Args& a) -> Value {
           return a.size() > 1 ? brasa::blackman_window(a.integer(0), flag(a, 1), a.options())
                               : brasa::blackman_window(a.integer(0), a.options());
         }},
        {"bartlett_window",
         [](const Args& a) -> Value {
           return a.size() > 1 ? brasa::bartlett_window(a.integer(0), flag(a, 1), a.options())
                               : brasa::bartlett_window(a.integer(0), a.options());
         }},
        {"kaiser_window",
         [](const Args& a) -> Value {
           switch (a.size()) {
             case 1: return brasa::kaiser_window(a.integer(0), a.options());
             case 2: return brasa::kaiser_window(a.integer(0), flag(a, 1), a.options());
             default: return brasa::kaiser_window(a.integer(0), flag(a, 1), a.real(2), a.options());
           }
         }},
    });

#undef BRASA_ACT
#undef BRASA_ACT_INPLACE

}  // namespace
}  // namespace brasa::conformance
