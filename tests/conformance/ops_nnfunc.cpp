// Op map of the nn.functional family (cases_nnfunc.py): torch.nn.functional calls with keyword
// arguments, replayed through brasa::nn::functional's option structs.

#include "brasa/nn/functional.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

namespace F = brasa::nn::functional;

nn::reduction_t reduction(const Args& a) {
  const auto r = a.kw_str("reduction").value_or("mean");
  if (r == "none") return kNone;
  if (r == "sum") return kSum;
  return kMean;
}

const OpTable kNNFunc(
    "nnfunc",
    {
        {"nn.relu", [](const Args& a) -> Value { return F::relu(a.tensor(0)); }},
        {"nn.relu6", [](const Args& a) -> Value { return F::relu6(a.tensor(0)); }},
        {"nn.leaky_relu",
         [](const Args& a) -> Value {
           return F::leaky_relu(a.tensor(0), F::LeakyReLUFuncOptions().negative_slope(
                                                 a.kw_real("negative_slope").value_or(0.01)));
         }},
        {"nn.elu",
         [](const Args& a) -> Value {
           return F::elu(a.tensor(0), F::ELUFuncOptions().alpha(a.kw_real("alpha").value_or(1)));
         }},
        {"nn.selu", [](const Args& a) -> Value { return F::selu(a.tensor(0)); }},
        {"nn.celu",
         [](const Args& a) -> Value {
           return F::celu(a.tensor(0), F::CELUFuncOptions().alpha(a.kw_real("alpha").value_or(1)));
         }},
        {"nn.gelu",
         [](const Args& a) -> Value {
           return F::gelu(a.tensor(0), F::GELUFuncOptions().approximate(
                                           a.kw_str("approximate").value_or("none")));
         }},
        {"nn.silu", [](const Args& a) -> Value { return F::silu(a.tensor(0)); }},
        {"nn.mish", [](const Args& a) -> Value { return F::mish(a.tensor(0)); }},
        {"nn.softplus",
         [](const Args& a) -> Value {
           return F::softplus(a.tensor(0), F::SoftplusFuncOptions()
                                               .beta(a.kw_real("beta").value_or(1))
                                               .threshold(a.kw_real("threshold").value_or(20)));
         }},
        {"nn.softsign", [](const Args& a) -> Value { return F::softsign(a.tensor(0)); }},
        {"nn.hardtanh",
         [](const Args& a) -> Value {
           return F::hardtanh(a.tensor(0), F::HardtanhFuncOptions()
                                               .min_val(a.kw_real("min_val").value_or(-1))
                                               .max_val(a.kw_real("max_val").value_or(1)));
         }},
        {"nn.hardsigmoid", [](const Args& a) -> Value { return F::hardsigmoid(a.tensor(0)); }},
        {"nn.hardswish", [](const Args& a) -> Value { return F::hardswish(a.tensor(0)); }},
        {"nn.logsigmoid", [](const Args& a) -> Value { return F::logsigmoid(a.tensor(0)); }},
        {"nn.glu",
         [](const Args& a) -> Value {
           return F::glu(a.tensor(0), F::GLUFuncOptions(a.kw_int("dim").value_or(-1)));
         }},
        {"nn.softmax",
         [](const Args& a) -> Value {
           return F::softmax(a.tensor(0), F::SoftmaxFuncOptions(*a.kw_int("dim")));
         }},
        {"nn.log_softmax",
         [](const Args& a) -> Value {
           return F::log_softmax(a.tensor(0), F::LogSoftmaxFuncOptions(*a.kw_int("dim")));
         }},
        {"nn.softmin",
         [](const Args& a) -> Value {
           return F::softmin(a.tensor(0),
                             F::SoftminFuncOptions(*a.kw_int("dim")).dtype(a.kw_dtype("dtype")));
         }},
        {"nn.hardshrink",
         [](const Args& a) -> Value {
           return F::hardshrink(a.tensor(0), a.kw_real("lambd").value_or(0.5));
         }},
        {"nn.softshrink",
         [](const Args& a) -> Value {
           return F::softshrink(a.tensor(0), a.kw_real("lambd").value_or(0.5));
         }},
        {"nn.tanhshrink", [](const Args& a) -> Value { return F::tanhshrink(a.tensor(0)); }},
        {"nn.threshold",
         [](const Args& a) -> Value {
           return F::threshold(
               a.tensor(0), F::ThresholdFuncOptions(*a.kw_real("threshold"), *a.kw_real("value")));
         }},
        {"nn.rrelu",
         [](const Args& a) -> Value {
           return F::rrelu(a.tensor(0), F::RReLUFuncOptions()
                                            .lower(a.kw_real("lower").value_or(1.0 / 8))
                                            .upper(a.kw_real("upper").value_or(1.0 / 3)));
         }},
        {"nn.prelu", [](const Args& a) -> Value { return F::prelu(a.tensor(0), a.tensor(1)); }},
        {"nn.layer_norm",
         [](const Args& a) -> Value {
           return F::layer_norm(a.tensor(0), F::LayerNormFuncOptions(a.ints(1))
                                                 .weight(a.kw_tensor("weight"))
                                                 .bias(a.kw_tensor("bias"))
                                                 .eps(a.kw_real("eps").value_or(1e-5)));
         }},
        {"nn.group_norm",
         [](const Args& a) -> Value {
           return F::group_norm(a.tensor(0), F::GroupNormFuncOptions(a.integer(1))
                                                 .weight(a.kw_tensor("weight"))
                                                 .bias(a.kw_tensor("bias")));
         }},
        {"nn.batch_norm",
         [](const Args& a) -> Value {
           Tensor rm = opt_tensor(a, 1), rv = opt_tensor(a, 2);
           return F::batch_norm(a.tensor(0), rm.defined() ? rm.clone() : rm,
                                rv.defined() ? rv.clone() : rv,
                                F::BatchNormFuncOptions()
                                    .weight(a.kw_tensor("weight"))
                                    .bias(a.kw_tensor("bias"))
                                    .training(a.kw_bool("training").value_or(false))
                                    .momentum(a.kw_real("momentum").value_or(0.1)));
         }},
        {"nn.instance_norm",
         [](const Args& a) -> Value {
           return F::instance_norm(a.tensor(0), F::InstanceNormFuncOptions()
                                                    .weight(a.kw_tensor("weight"))
                                                    .bias(a.kw_tensor("bias")));
         }},
        {"nn.normalize",
         [](const Args& a) -> Value {
           return F::normalize(a.tensor(0), F::NormalizeFuncOptions()
                                                .p(a.kw_real("p").value_or(2))
                                                .dim(a.kw_int("dim").value_or(1)));
         }},
        {"nn.local_response_norm",
         [](const Args& a) -> Value {
           return F::local_response_norm(a.tensor(0), F::LocalResponseNormFuncOptions(a.integer(1))
                                                          .alpha(*a.kw_real("alpha"))
                                                          .beta(*a.kw_real("beta"))
                                                          .k(*a.kw_real("k")));
         }},
        {"nn.cosine_similarity",
         [](const Args& a) -> Value {
           return F::cosine_similarity(
               a.tensor(0), a.tensor(1),
               F::CosineSimilarityFuncOptions().dim(a.kw_int("dim").value_or(1)));
         }},
        {"nn.pairwise_distance",
         [](const Args& a) -> Value {
           return F::pairwise_distance(a.tensor(0), a.tensor(1),
                                       F::PairwiseDistanceFuncOptions()
                                           .p(a.kw_real("p").value_or(2))
                                           .keepdim(a.kw_bool("keepdim").value_or(false)));
         }},
        {"nn.mse_loss",
         [](const Args& a) -> Value {
           return F::mse_loss(a.tensor(0), a.tensor(1), F::MSELossFuncOptions(reduction(a)));
         }},
        {"nn.l1_loss",
         [](const Args& a) -> Value {
           return F::l1_loss(a.tensor(0), a.tensor(1), F::L1LossFuncOptions(reduction(a)));
         }},
        {"nn.smooth_l1_loss",
         [](const Args& a) -> Value {
           return F::smooth_l1_loss(
               a.tensor(0), a.tensor(1),
               F::SmoothL1LossFuncOptions(reduction(a)).beta(a.kw_real("beta").value_or(1)));
         }},
        {"nn.huber_loss",
         [](const Args& a) -> Value {
           return F::huber_loss(
               a.tensor(0), a.tensor(1),
               F::HuberLossFuncOptions(reduction(a)).delta(a.kw_real("delta").value_or(1)));
         }},
        {"nn.nll_loss",
         [](const Args& a) -> Value {
           return F::nll_loss(a.tensor(0), a.tensor(1),
                              F::NLLLossFuncOptions(reduction(a))
                                  .weight(a.kw_tensor("weight"))
                                  .ignore_index(a.kw_int("ignore_index").value_or(-100)));
         }},
        {"nn.cross_entropy",
         [](const Args& a) -> Value {
           return F::cross_entropy(a.tensor(0), a.tensor(1),
                                   F::CrossEntropyFuncOptions(reduction(a))
                                       .weight(a.kw_tensor("weight"))
                                       .ignore_index(a.kw_int("ignore_index").value_or(-100))
                                       .label_smoothing(a.kw_real("label_smoothing").value_or(0)));
         }},
        {"nn.binary_cross_entropy",
         [](const Args& a) -> Value {
           return F::binary_cross_entropy(
               a.tensor(0), a.tensor(1),
               F::BinaryCrossEntropyFuncOptions(reduction(a)).weight(a.kw_tensor("weight")));
         }},
        {"nn.binary_cross_entropy_with_logits",
         [](const Args& a) -> Value {
           return F::binary_cross_entropy_with_logits(
               a.tensor(0), a.tensor(1),
               F::BinaryCrossEntropyWithLogitsFuncOptions(reduction(a))
                   .weight(a.kw_tensor("weight"))
                   .pos_weight(a.kw_tensor("pos_weight")));
         }},
        {"nn.kl_div",
         [](const Args& a) -> Value {
           const auto r = a.kw_str("reduction").value_or("mean");
           F::KLDivFuncOptions o;
           if (r == "none") o.reduction(kNone);
           if (r == "sum") o.reduction(kSum);
           if (r == "batchmean") o.reduction(kBatchMean);
           return F::kl_div(a.tensor(0), a.tensor(1),
                            o.log_target(a.kw_bool("log_target").value_or(false)));
         }},
        {"nn.margin_ranking_loss",
         [](const Args& a) -> Value {
           return F::margin_ranking_loss(
               a.tensor(0), a.tensor(1), a.tensor(2),
               F::MarginRankingLossFuncOptions(reduction(a)).margin(*a.kw_real("margin")));
         }},
        {"nn.cosine_embedding_loss",
         [](const Args& a) -> Value {
           return F::cosine_embedding_loss(
               a.tensor(0), a.tensor(1), a.tensor(2),
               F::CosineEmbeddingLossFuncOptions(reduction(a)).margin(*a.kw_real("margin")));
         }},
    });

}  // namespace
}  // namespace brasa::conformance
