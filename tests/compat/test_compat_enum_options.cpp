// The enum options of nn as libtorch programs read and write them (Note [Enum options are
// EnumVariants]): c10::get_if / holds_alternative / get / visit, torch::enumtype::get_enum_name,
// conversions from the tags and from the value alternatives (conv padding, the transformer's
// activation), and the setters' braced lists.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <variant>

namespace F = torch::nn::functional;

TEST(CompatEnumOptions, ReadWithC10Functions) {
  auto o = F::MSELossFuncOptions().reduction(torch::kSum);
  EXPECT_NE(c10::get_if<torch::enumtype::kSum>(&o.reduction()), nullptr);
  EXPECT_EQ(c10::get_if<torch::enumtype::kMean>(&o.reduction()), nullptr);
  EXPECT_TRUE(c10::holds_alternative<torch::enumtype::kSum>(o.reduction()));
  EXPECT_EQ(o.reduction().index(), 2u);
  EXPECT_FALSE(o.reduction().valueless_by_exception());
  EXPECT_EQ(torch::enumtype::get_enum_name(o.reduction()), "kSum");
  EXPECT_EQ(c10::visit(torch::enumtype::_compute_enum_name{}, o.reduction()), "kSum");
  EXPECT_EQ(torch::enumtype::reduction_get_enum(o.reduction()), at::Reduction::Sum);
  EXPECT_THROW(c10::get<torch::enumtype::kMean>(o.reduction()), std::bad_variant_access);
  // The first alternative by default, like std::variant; a copy keeps the alternative.
  torch::nn::functional::EmbeddingBagFuncOptions e;
  EXPECT_TRUE(c10::holds_alternative<torch::enumtype::kSum>(torch::nn::EmbeddingBagMode()));
  EXPECT_TRUE(c10::holds_alternative<torch::enumtype::kMean>(e.mode()));
  auto copy = e.mode(torch::kMax).mode();
  EXPECT_EQ(torch::enumtype::get_enum_name(copy), "kMax");
}

TEST(CompatEnumOptions, TagConstructors) {
  torch::nn::L1Loss l1(torch::kSum);
  EXPECT_TRUE(c10::holds_alternative<torch::enumtype::kSum>(l1->options.reduction()));
  auto kl = F::KLDivFuncOptions(torch::kBatchMean);
  EXPECT_EQ(torch::enumtype::get_enum_name(kl.reduction()), "kBatchMean");
  auto rnn = torch::nn::RNNOptions(2, 3).nonlinearity(torch::kReLU);
  EXPECT_EQ(torch::enumtype::get_enum_name(rnn.nonlinearity()), "kReLU");
  auto pad = F::PadFuncOptions({1, 1}).mode(torch::kReflect);
  EXPECT_EQ(torch::enumtype::get_enum_name(pad.mode()), "kReflect");
}

TEST(CompatEnumOptions, ValueAlternatives) {
  auto one = torch::nn::Conv2dOptions(3, 8, 3).padding(1);
  const auto& p = c10::get<torch::ExpandingArray<2>>(one.padding());
  EXPECT_EQ((*p)[0], 1);
  EXPECT_EQ((*p)[1], 1);
  // A braced list builds the ExpandingArray, as in libtorch (`.padding({1, 2})`).
  auto two = torch::nn::Conv2dOptions(3, 8, 3).padding({1, 2});
  EXPECT_EQ((*c10::get<torch::ExpandingArray<2>>(two.padding()))[1], 2);
  auto same = F::Conv1dFuncOptions().padding(torch::kSame);
  EXPECT_TRUE(c10::holds_alternative<torch::enumtype::kSame>(same.padding()));
  EXPECT_EQ(c10::get_if<torch::ExpandingArray<1>>(&same.padding()), nullptr);

  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(1, 1, 3).padding({1, 2}).bias(false));
  EXPECT_EQ(conv->forward(torch::ones({1, 1, 4, 4})).sizes(), torch::IntArrayRef({1, 1, 4, 6}));
  torch::Tensor x = torch::ones({1, 1, 5});
  torch::Tensor w = torch::ones({1, 1, 3});
  EXPECT_EQ(F::conv1d(x, w, F::Conv1dFuncOptions().padding(torch::kSame)).sizes(),
            torch::IntArrayRef({1, 1, 5}));
  EXPECT_EQ(F::conv1d(x, w, F::Conv1dFuncOptions().padding(torch::kValid)).sizes(),
            torch::IntArrayRef({1, 1, 3}));

  int calls = 0;
  auto layer =
      torch::nn::TransformerEncoderLayerOptions(4, 2).activation([&calls](const torch::Tensor& t) {
        ++calls;
        return t;
      });
  EXPECT_EQ(layer.activation().index(), 2u);
  c10::get<std::function<torch::Tensor(const torch::Tensor&)>>(layer.activation())(x);
  EXPECT_EQ(calls, 1);
  auto gelu = torch::nn::TransformerEncoderLayerOptions(4, 2).activation(torch::kGELU);
  EXPECT_TRUE(c10::holds_alternative<torch::enumtype::kGELU>(gelu.activation()));
}

TEST(CompatEnumOptions, OwnVariantOfTags) {
  // libtorch's own enum test names tags held in a c10::variant the program declares.
  c10::variant<torch::enumtype::kLinear, torch::enumtype::kReflect, torch::enumtype::kGRU> v;
  v = torch::kReflect;
  EXPECT_EQ(torch::enumtype::get_enum_name(v), "kReflect");
  v = torch::kGRU;
  EXPECT_EQ(torch::enumtype::get_enum_name(v), "kGRU");
}
