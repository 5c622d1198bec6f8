// The library modules' forward default arguments, defined out of line in
// src/nn/modules/forward_default_args.cpp: each list names the parameters libtorch gives
// defaults, with the default's type and value, so AnyModule / Sequential can call the module
// with fewer arguments.

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <typeinfo>
#include <utility>
#include <vector>

#include "brasa/nn/modules.h"

namespace brasa::nn {
namespace {

using DefaultList = std::vector<std::pair<unsigned int, AnyValue>>;

/// "index:type" of each default, with `=undefined`, `=nullopt` or `=true` for its value.
std::string describe_defaults(DefaultList defaults) {
  std::string out;
  for (auto& [index, value] : defaults) {
    out += std::to_string(index) + ":";
    if (auto* t = value.try_get<Tensor>()) {
      out += std::string("Tensor=") + (t->defined() ? "defined" : "undefined");
    } else if (auto* b = value.try_get<bool>()) {
      out += std::string("bool=") + (*b ? "true" : "false");
    } else if (auto* r = value.try_get<OptionalIntArrayRef>()) {
      out += std::string("OptionalIntArrayRef=") + (r->has_value() ? "value" : "nullopt");
    } else if (auto* v = value.try_get<std::optional<std::vector<int64_t>>>()) {
      out += std::string("optional<vector>=") + (v->has_value() ? "value" : "nullopt");
    } else if (auto* s = value.try_get<std::optional<std::tuple<Tensor, Tensor>>>()) {
      out += std::string("optional<tuple>=") + (s->has_value() ? "value" : "nullopt");
    } else {
      out += "unexpected type";
    }
    out += " ";
  }
  return out;
}

TEST(ForwardDefaultArgs, LibraryModulesListLibtorchsDefaults) {
  const std::string tensors12 = "1:Tensor=undefined 2:Tensor=undefined ";
  const std::string tensors2to5 =
      "2:Tensor=undefined 3:Tensor=undefined 4:Tensor=undefined 5:Tensor=undefined ";
  EXPECT_EQ(describe_defaults(ConvTranspose1dImpl::_forward_default_args()),
            "1:OptionalIntArrayRef=nullopt ");
  EXPECT_EQ(describe_defaults(ConvTranspose2dImpl::_forward_default_args()),
            "1:OptionalIntArrayRef=nullopt ");
  EXPECT_EQ(describe_defaults(ConvTranspose3dImpl::_forward_default_args()),
            "1:OptionalIntArrayRef=nullopt ");
  for (const auto& list :
       {MaxUnpool1dImpl::_forward_default_args(), MaxUnpool2dImpl::_forward_default_args(),
        MaxUnpool3dImpl::_forward_default_args()}) {
    EXPECT_EQ(describe_defaults(list), "2:optional<vector>=nullopt ");
  }
  EXPECT_EQ(describe_defaults(MultiheadAttentionImpl::_forward_default_args()),
            "3:Tensor=undefined 4:bool=true 5:Tensor=undefined 6:bool=true ");
  for (const auto& list :
       {RNNImpl::_forward_default_args(), GRUImpl::_forward_default_args(),
        RNNCellImpl::_forward_default_args(), GRUCellImpl::_forward_default_args()}) {
    EXPECT_EQ(describe_defaults(list), "1:Tensor=undefined ");
  }
  EXPECT_EQ(describe_defaults(LSTMImpl::_forward_default_args()), "1:optional<tuple>=nullopt ");
  EXPECT_EQ(describe_defaults(LSTMCellImpl::_forward_default_args()), "1:optional<tuple>=nullopt ");
  EXPECT_EQ(describe_defaults(EmbeddingBagImpl::_forward_default_args()), tensors12);
  EXPECT_EQ(describe_defaults(TransformerEncoderLayerImpl::_forward_default_args()), tensors12);
  EXPECT_EQ(describe_defaults(TransformerEncoderImpl::_forward_default_args()), tensors12);
  EXPECT_EQ(describe_defaults(TransformerDecoderLayerImpl::_forward_default_args()), tensors2to5);
  EXPECT_EQ(describe_defaults(TransformerDecoderImpl::_forward_default_args()), tensors2to5);
  EXPECT_EQ(describe_defaults(TransformerImpl::_forward_default_args()),
            tensors2to5 + "6:Tensor=undefined 7:Tensor=undefined ");
}

// Through AnyModule, which fills the missing arguments in from the list.
TEST(ForwardDefaultArgs, AnyModuleCallsWithFewerArguments) {
  AnyModule lstm(LSTM(3, 4));
  auto out = lstm.forward<std::tuple<Tensor, std::tuple<Tensor, Tensor>>>(zeros({2, 1, 3}));
  EXPECT_EQ(std::get<0>(out).sizes(), IntArrayRef({2, 1, 4}));
  AnyModule unpool(MaxUnpool1d(2));
  Tensor pooled = ones({1, 1, 2});
  Tensor indices = tensor({int64_t{0}, int64_t{2}}).view({1, 1, 2});
  EXPECT_EQ(unpool.forward(pooled, indices).sizes(), IntArrayRef({1, 1, 4}));
}

}  // namespace
}  // namespace brasa::nn
