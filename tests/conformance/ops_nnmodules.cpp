// Op map of the nnmodules family (cases_nnmodules.py): each case builds libtorch's module from
// the case's arguments and calls forward, as a libtorch program would.

#include <string>
#include <vector>

#include "brasa/nn/functional/activation.h"
#include "brasa/nn/functional/normalization.h"
#include "brasa/nn/modules.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

namespace F = nn::functional;

Tensor detached(const Args& a, size_t i) { return given(a, i) ? a.tensor(i).detach() : Tensor(); }

std::string text(const Args& a, size_t i) { return a.at(i).s; }

nn::reduction_t reduction(const Args& a, size_t i) {
  const std::string r = text(a, i);
  if (r == "none") return kNone;
  if (r == "sum") return kSum;
  return kMean;
}

/// An int or a list of ints as an ExpandingArray.
template <size_t D, class T = int64_t>
ExpandingArray<D, T> expand(const Args& a, size_t i) {
  if (a.at(i).tag != Tag::List) {
    if constexpr (std::is_same_v<T, double>) return ExpandingArray<D, T>(a.real(i));
    return ExpandingArray<D, T>(a.integer(i));
  }
  std::vector<T> v;
  for (const Value& x : a.at(i).list)
    v.push_back(x.tag == Tag::Int ? static_cast<T>(x.i) : static_cast<T>(x.f));
  return ExpandingArray<D, T>(v);
}

template <class Module, size_t D>
Value unpool(const Args& a) {
  Module m(
      nn::MaxUnpoolOptions<D>(expand<D>(a, 2)).stride(expand<D>(a, 3)).padding(expand<D>(a, 4)));
  std::optional<std::vector<int64_t>> size;
  if (given(a, 5)) size = a.ints(5);
  return m(a.tensor(0), a.tensor(1), size);
}

template <class Module, class Options, size_t D>
Value fractional(const Args& a) {
  Options o(expand<D>(a, 1));
  if (given(a, 2)) o.output_size(expand<D>(a, 2));
  if (given(a, 3)) o.output_ratio(expand<D, double>(a, 3));
  o._random_samples(detached(a, 4));
  Module m(o);
  return pair(m->forward_with_indices(a.tensor(0)));
}

template <class Module, size_t N>
Value shaped_pad(const Args& a) {
  return Module(expand<N>(a, 1))(a.tensor(0));
}

template <class Module, class Options, size_t N>
Value constant_pad(const Args& a) {
  return Module(Options(expand<N>(a, 1), a.real(2)))(a.tensor(0));
}

/// A module in eval() mode, on the input's device and in its dtype (its parameters are Float
/// CPU tensors otherwise), as a libtorch program moves its model.
template <class Module>
Tensor run_eval(Module m, const Tensor& x) {
  m->eval();
  if (is_floating_type(x.scalar_type()))
    m->to(x.device(), x.scalar_type());
  else
    m->to(x.device());
  return m(x);
}

template <class Module, class Options, size_t D>
Value lp_pool(const Args& a) {
  Options o(a.real(1), expand<D>(a, 2));
  if (given(a, 3)) o.stride(expand<D>(a, 3));
  return Module(o.ceil_mode(flag(a, 4)))(a.tensor(0));
}

Tensor distance(const std::string& name, const Tensor& x, const Tensor& y) {
  if (name == "cosine") return 1.0 - F::cosine_similarity(x, y);
  return (x - y).abs().sum(-1);
}

const OpTable kNNModules(
    "nnmodules",
    {
        {"MaxUnpool1d", unpool<nn::MaxUnpool1d, 1>},
        {"MaxUnpool2d", unpool<nn::MaxUnpool2d, 2>},
        {"MaxUnpool3d", unpool<nn::MaxUnpool3d, 3>},
        {"FractionalMaxPool2d",
         fractional<nn::FractionalMaxPool2d, nn::FractionalMaxPool2dOptions, 2>},
        {"FractionalMaxPool3d",
         fractional<nn::FractionalMaxPool3d, nn::FractionalMaxPool3dOptions, 3>},
        {"ReflectionPad1d", shaped_pad<nn::ReflectionPad1d, 2>},
        {"ReflectionPad2d", shaped_pad<nn::ReflectionPad2d, 4>},
        {"ReflectionPad3d", shaped_pad<nn::ReflectionPad3d, 6>},
        {"ReplicationPad1d", shaped_pad<nn::ReplicationPad1d, 2>},
        {"ReplicationPad2d", shaped_pad<nn::ReplicationPad2d, 4>},
        {"ReplicationPad3d", shaped_pad<nn::ReplicationPad3d, 6>},
        {"ZeroPad2d", shaped_pad<nn::ZeroPad2d, 4>},
        {"ConstantPad1d", constant_pad<nn::ConstantPad1d, nn::ConstantPad1dOptions, 2>},
        {"ConstantPad2d", constant_pad<nn::ConstantPad2d, nn::ConstantPad2dOptions, 4>},
        {"ConstantPad3d", constant_pad<nn::ConstantPad3d, nn::ConstantPad3dOptions, 6>},
        {"LocalResponseNorm",
         [](const Args& a) -> Value {
           nn::LocalResponseNorm m(nn::LocalResponseNormOptions(a.integer(1))
                                       .alpha(a.real(2))
                                       .beta(a.real(3))
                                       .k(a.real(4)));
           return m(a.tensor(0));
         }},
        {"CrossMapLRN2d",
         [](const Args& a) -> Value {
           nn::CrossMapLRN2d m(nn::CrossMapLRN2dOptions(a.integer(1))
                                   .alpha(a.real(2))
                                   .beta(a.real(3))
                                   .k(a.integer(4)));
           return m(a.tensor(0));
         }},
        // ---- activations ----
        {"Softmin", [](const Args& a) -> Value { return nn::Softmin(a.integer(1))(a.tensor(0)); }},
        {"Softmax2d", [](const Args& a) -> Value { return nn::Softmax2d()(a.tensor(0)); }},
        {"Hardshrink",
         [](const Args& a) -> Value {
           return nn::Hardshrink(given(a, 1) ? a.real(1) : 0.5)(a.tensor(0));
         }},
        {"Softshrink",
         [](const Args& a) -> Value {
           return nn::Softshrink(given(a, 1) ? a.real(1) : 0.5)(a.tensor(0));
         }},
        {"Tanhshrink", [](const Args& a) -> Value { return nn::Tanhshrink()(a.tensor(0)); }},
        {"Threshold",
         [](const Args& a) -> Value { return nn::Threshold(a.real(1), a.real(2))(a.tensor(0)); }},
        {"RReLU",
         [](const Args& a) -> Value {
           return run_eval(nn::RReLU(nn::RReLUOptions().lower(a.real(1)).upper(a.real(2))),
                           a.tensor(0));
         }},
        {"PReLU",
         [](const Args& a) -> Value {
           return run_eval(
               nn::PReLU(nn::PReLUOptions().num_parameters(a.integer(1)).init(a.real(2))),
               a.tensor(0));
         }},
        {"LPPool1d", lp_pool<nn::LPPool1d, nn::LPPool1dOptions, 1>},
        {"LPPool2d", lp_pool<nn::LPPool2d, nn::LPPool2dOptions, 2>},
        {"CosineSimilarity",
         [](const Args& a) -> Value {
           nn::CosineSimilarity m(nn::CosineSimilarityOptions().dim(a.integer(2)).eps(a.real(3)));
           return m(a.tensor(0), a.tensor(1));
         }},
        {"PairwiseDistance",
         [](const Args& a) -> Value {
           nn::PairwiseDistance m(
               nn::PairwiseDistanceOptions().p(a.real(2)).eps(a.real(3)).keepdim(flag(a, 4)));
           return m(a.tensor(0), a.tensor(1));
         }},
        {"Unfold",
         [](const Args& a) -> Value {
           nn::Unfold m(nn::UnfoldOptions(expand<2>(a, 1))
                            .dilation(expand<2>(a, 2))
                            .padding(expand<2>(a, 3))
                            .stride(expand<2>(a, 4)));
           return m(a.tensor(0));
         }},
        {"Fold",
         [](const Args& a) -> Value {
           nn::Fold m(nn::FoldOptions(expand<2>(a, 1), expand<2>(a, 2))
                          .dilation(expand<2>(a, 3))
                          .padding(expand<2>(a, 4))
                          .stride(expand<2>(a, 5)));
           return m(a.tensor(0));
         }},
        // ---- losses ----
        {"SoftMarginLoss",
         [](const Args& a) -> Value {
           return nn::SoftMarginLoss(reduction(a, 2))(a.tensor(0), a.tensor(1).detach());
         }},
        {"MultiLabelMarginLoss",
         [](const Args& a) -> Value {
           return nn::MultiLabelMarginLoss(reduction(a, 2))(a.tensor(0), a.tensor(1));
         }},
        {"MultiLabelSoftMarginLoss",
         [](const Args& a) -> Value {
           nn::MultiLabelSoftMarginLoss m(nn::MultiLabelSoftMarginLossOptions()
                                              .weight(detached(a, 2))
                                              .reduction(reduction(a, 3)));
           return m(a.tensor(0), a.tensor(1).detach());
         }},
        {"HingeEmbeddingLoss",
         [](const Args& a) -> Value {
           nn::HingeEmbeddingLoss m(
               nn::HingeEmbeddingLossOptions().margin(a.real(2)).reduction(reduction(a, 3)));
           return m(a.tensor(0), a.tensor(1).detach());
         }},
        {"MultiMarginLoss",
         [](const Args& a) -> Value {
           nn::MultiMarginLoss m(nn::MultiMarginLossOptions()
                                     .p(a.integer(2))
                                     .margin(a.real(3))
                                     .weight(detached(a, 4))
                                     .reduction(reduction(a, 5)));
           return m(a.tensor(0), a.tensor(1));
         }},
        {"PoissonNLLLoss",
         [](const Args& a) -> Value {
           nn::PoissonNLLLoss m(nn::PoissonNLLLossOptions()
                                    .log_input(flag(a, 2))
                                    .full(flag(a, 3))
                                    .eps(a.real(4))
                                    .reduction(reduction(a, 5)));
           return m(a.tensor(0), a.tensor(1).detach());
         }},
        {"TripletMarginLoss",
         [](const Args& a) -> Value {
           nn::TripletMarginLoss m(nn::TripletMarginLossOptions()
                                       .margin(a.real(3))
                                       .p(a.real(4))
                                       .swap(flag(a, 5))
                                       .reduction(reduction(a, 6)));
           return m(a.tensor(0), a.tensor(1), a.tensor(2));
         }},
        {"TripletMarginWithDistanceLoss",
         [](const Args& a) -> Value {
           nn::TripletMarginWithDistanceLossOptions o;
           const std::string name = text(a, 3);
           if (name != "pairwise")
             o.distance_function(
                 [name](const Tensor& x, const Tensor& y) { return distance(name, x, y); });
           nn::TripletMarginWithDistanceLoss m(
               o.margin(a.real(4)).swap(flag(a, 5)).reduction(reduction(a, 6)));
           return m(a.tensor(0), a.tensor(1), a.tensor(2));
         }},
        {"CTCLoss",
         [](const Args& a) -> Value {
           nn::CTCLoss m(nn::CTCLossOptions()
                             .blank(a.integer(4))
                             .reduction(reduction(a, 5))
                             .zero_infinity(flag(a, 6)));
           return m(a.tensor(0), a.tensor(1), a.tensor(2), a.tensor(3));
         }},
    });

}  // namespace
}  // namespace brasa::conformance
