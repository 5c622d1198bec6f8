// Op map of the nnaten family (cases_nnaten.py): the at:: loss and dropout functions, called with
// libtorch's positional arguments.

#include "brasa/nn/dropout_functions.h"
#include "brasa/nn/loss_functions.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

std::optional<Tensor> weight(const Args& a, size_t i) {
  if (!a.is_tensor(i)) return std::nullopt;
  return a.tensor(i);
}

const OpTable kNNAten(
    "nnaten",
    {
        {"mse_loss",
         [](const Args& a) -> Value { return mse_loss(a.tensor(0), a.tensor(1), a.integer(2)); }},
        {"l1_loss",
         [](const Args& a) -> Value { return l1_loss(a.tensor(0), a.tensor(1), a.integer(2)); }},
        {"smooth_l1_loss",
         [](const Args& a) -> Value {
           return smooth_l1_loss(a.tensor(0), a.tensor(1), a.integer(2), a.real(3));
         }},
        {"huber_loss",
         [](const Args& a) -> Value {
           return huber_loss(a.tensor(0), a.tensor(1), a.integer(2), a.real(3));
         }},
        {"nll_loss",
         [](const Args& a) -> Value {
           return nll_loss(a.tensor(0), a.tensor(1), weight(a, 2), a.integer(3), a.integer(4));
         }},
        {"nll_loss2d",
         [](const Args& a) -> Value {
           return nll_loss2d(a.tensor(0), a.tensor(1), weight(a, 2), a.integer(3), a.integer(4));
         }},
        {"cross_entropy_loss",
         [](const Args& a) -> Value {
           return cross_entropy_loss(a.tensor(0), a.tensor(1), weight(a, 2), a.integer(3),
                                     a.integer(4), a.real(5));
         }},
        {"binary_cross_entropy",
         [](const Args& a) -> Value {
           return binary_cross_entropy(a.tensor(0), a.tensor(1), weight(a, 2), a.integer(3));
         }},
        {"binary_cross_entropy_with_logits",
         [](const Args& a) -> Value {
           return binary_cross_entropy_with_logits(a.tensor(0), a.tensor(1), weight(a, 2),
                                                   weight(a, 3), a.integer(4));
         }},
        {"kl_div",
         [](const Args& a) -> Value {
           return kl_div(a.tensor(0), a.tensor(1), a.integer(2), flag(a, 3));
         }},
        {"margin_ranking_loss",
         [](const Args& a) -> Value {
           return margin_ranking_loss(a.tensor(0), a.tensor(1), a.tensor(2), a.real(3),
                                      a.integer(4));
         }},
        {"cosine_embedding_loss",
         [](const Args& a) -> Value {
           return cosine_embedding_loss(a.tensor(0), a.tensor(1), a.tensor(2), a.real(3),
                                        a.integer(4));
         }},
        {"dropout",
         [](const Args& a) -> Value { return dropout(a.tensor(0), a.real(1), flag(a, 2)); }},
        {"feature_dropout",
         [](const Args& a) -> Value {
           return feature_dropout(a.tensor(0), a.real(1), flag(a, 2));
         }},
        {"alpha_dropout",
         [](const Args& a) -> Value { return alpha_dropout(a.tensor(0), a.real(1), flag(a, 2)); }},
    });

}  // namespace
}  // namespace brasa::conformance
