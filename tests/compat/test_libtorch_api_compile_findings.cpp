// What libtorch 1.13's own C++ API tests (test/cpp/api: modules.cpp, functional.cpp, any.cpp,
// tensor.cpp, rnn.cpp, operations.cpp, tensor_indexing.cpp) spell and brasa's headers lacked, each
// used as those tests use it. Expected values come from PyTorch 1.13 (noted where they matter).

#include <gtest/gtest.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/loss.h>
#include <torch/nn/modules/container/any.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/options/activation.h>
#include <torch/nn/options/loss.h>
#include <torch/torch.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/throws_with.h"

namespace {

namespace F = torch::nn::functional;

TEST(LibtorchApiCompile, PerFamilyHeadersDeclareTheirFunctionalsAndOptions) {
  auto x = torch::tensor({-1.0, 2.0});
  auto y = F::elu(x, F::ELUFuncOptions().alpha(2.0));
  EXPECT_NEAR(y[0].item<double>(), 2.0 * (std::exp(-1.0) - 1.0), 1e-6);
  auto options = torch::nn::ELUOptions().alpha(0.5);
  EXPECT_EQ(options.alpha(), 0.5);
}

TEST(LibtorchApiCompile, RandomToDrawsLikeRandomFromZero) {
  // PyTorch 1.13: torch.manual_seed(0); torch.empty(6).random_(10)
  torch::manual_seed(0);
  auto a = torch::empty({6}).random_(10);
  EXPECT_TRUE(torch::equal(a, torch::tensor({4.0f, 9.0f, 3.0f, 0.0f, 3.0f, 9.0f})));
  torch::manual_seed(0);
  auto b = torch::empty({6}, torch::kLong).random_(7);
  EXPECT_TRUE(torch::equal(b, torch::tensor({4, 3, 0, 2, 1, 2})));
  torch::manual_seed(0);
  auto c = torch::empty({6}, torch::kLong).random_(3, 7);
  EXPECT_TRUE(torch::equal(c, torch::tensor({3, 6, 4, 3, 6, 6})));
  EXPECT_THROW(torch::empty({2}).random_(0), c10::Error);
}

// random_(from, nullopt) is libtorch's [from, max] form, which brasa does not have: it must not
// compile (rather than mean random_(0, from)).
template <typename T, typename = void>
struct AcceptsRandomFromNullopt : std::false_type {};
template <typename T>
struct AcceptsRandomFromNullopt<
    T, std::void_t<decltype(std::declval<T>().random_(int64_t(1), std::nullopt))>>
    : std::true_type {};
static_assert(!AcceptsRandomFromNullopt<torch::Tensor>::value);

TEST(LibtorchApiCompile, HalfAndBFloat16HaveSignalingNaNs) {
  static_assert(std::numeric_limits<c10::Half>::has_signaling_NaN);
  static_assert(std::numeric_limits<c10::BFloat16>::has_signaling_NaN);
  const c10::Half h = std::numeric_limits<c10::Half>::signaling_NaN();
  const c10::BFloat16 b = std::numeric_limits<c10::BFloat16>::signaling_NaN();
  EXPECT_TRUE(std::isnan(static_cast<float>(h)));
  EXPECT_TRUE(std::isnan(static_cast<float>(b)));
  uint16_t hb = 0, bb = 0;
  std::memcpy(&hb, &h, 2);
  std::memcpy(&bb, &b, 2);
  EXPECT_EQ(hb, 0x7d00);      // c10's value: exponent all ones, quiet bit clear
  EXPECT_EQ(bb & 0x0040, 0);  // quiet bit clear
  auto t = torch::tensor({h}, torch::kHalf);
  EXPECT_FALSE(torch::isfinite(t).all().item<bool>());
}

TEST(LibtorchApiCompile, StorageAccessors) {
  auto x = torch::arange(6, torch::kFloat).reshape({2, 3});
  auto* p = static_cast<float*>(x.storage().data());
  EXPECT_EQ(p, x.data_ptr<float>());
  EXPECT_EQ(x.storage().data<float>()[4], 4.0f);
  EXPECT_EQ(x.storage().nbytes(), 6 * sizeof(float));
  EXPECT_EQ(x.storage().device(), torch::Device(torch::kCPU));
  EXPECT_EQ(x.storage()->nbytes(), 6 * sizeof(float));  // still a pointer to the StorageImpl
  std::vector<double> v = {1.0, 2.0};
  auto blob = torch::from_blob(v.data(), {2}, torch::kFloat64);
  EXPECT_EQ(blob.storage().data_ptr().get_context(), nullptr);
  EXPECT_EQ(blob.storage().data_ptr().get(), v.data());
}

TEST(LibtorchApiCompile, IndexPutWithBracedIndicesAndAccumulate) {
  auto y = torch::tensor({1.0, 2.0, 3.0, 4.0});
  auto mask = y > 2;
  y.index_put_({mask}, {y.index({mask})}, /*accumulate=*/true);
  EXPECT_TRUE(torch::equal(y, torch::tensor({1.0, 2.0, 6.0, 8.0})));
  auto z = torch::zeros({4});
  auto idx = torch::tensor({0, 0, 3});
  z.index_put_({idx}, torch::tensor({1.0f, 2.0f, 5.0f}), /*accumulate=*/true);
  EXPECT_TRUE(torch::equal(z, torch::tensor({3.0f, 0.0f, 0.0f, 5.0f})));
  z.index_put_({idx}, torch::tensor({1.0f, 2.0f, 7.0f}), /*accumulate=*/false);
  EXPECT_EQ(z[3].item<float>(), 7.0f);
}

TEST(LibtorchApiCompile, PrintsAListOfIndices) {
  using namespace torch::indexing;
  std::vector<TensorIndex> indices = {None, "...", Ellipsis, 0, true, Slice(1, None, 2)};
  EXPECT_EQ(c10::str(indices),
            c10::str("(None, ..., ..., 0, true, 1:", std::numeric_limits<int64_t>::max(), ":2)"));
  EXPECT_EQ(c10::str(std::vector<TensorIndex>{}), "()");
}

TEST(LibtorchApiCompile, LinearOut) {
  const auto x = torch::arange(100., 118).resize_({3, 3, 2});
  const auto w = torch::arange(200., 206).resize_({3, 2});
  const auto b = torch::arange(300., 303);
  auto y = torch::empty({3, 3, 3});
  auto& r = at::linear_out(y, x, w, b);
  EXPECT_EQ(&r, &y);
  // PyTorch 1.13: F.linear(x, w, b)[0]
  EXPECT_TRUE(torch::equal(y[0], torch::tensor({{40601.f, 41004.f, 41407.f},
                                                {41403.f, 41814.f, 42225.f},
                                                {42205.f, 42624.f, 43043.f}})));
  auto empty = torch::empty({0});
  at::linear_out(empty, x, w);
  EXPECT_EQ(empty.sizes(), torch::IntArrayRef({3, 3, 3}));
  auto wrong = torch::empty({2, 2});
  EXPECT_THROW(at::linear_out(wrong, x, w, b), c10::Error);
}

TEST(LibtorchApiCompile, TensorDataContainerAccessorsCheckTheKind) {
  torch::detail::TensorDataContainer list({1.5, 2.5});
  EXPECT_EQ(list.init_list().size(), 2u);
  EXPECT_EQ(list.init_list()[1].scalar().to<double>(), 2.5);
  auto message = [](auto&& f) { return ::brasa::testing::thrown_message(f); };
  EXPECT_NE(message([] { (void)torch::detail::TensorDataContainer(1.1).init_list(); })
                .find("Can only call `init_list()` on a TensorDataContainer that has "
                      "`is_init_list() == true`"),
            std::string::npos);
  EXPECT_NE(message([] { (void)torch::detail::TensorDataContainer(1.1).tensor(); })
                .find("Can only call `tensor()` on a TensorDataContainer that has "
                      "`is_tensor() == true`"),
            std::string::npos);
  EXPECT_NE(message([] {
              (void)torch::detail::TensorDataContainer({1.1, 2.2}).scalar();
            })
                .find("Can only call `scalar()` on a TensorDataContainer that has "
                      "`is_scalar() == true`"),
            std::string::npos);
}

TEST(LibtorchApiCompile, CloneAndReshapeAliasFreeFunctions) {
  auto x = torch::randn({3, 3});
  auto c = torch::clone(x);
  EXPECT_TRUE(torch::equal(c, x));
  EXPECT_NE(c.data_ptr(), x.data_ptr());
  EXPECT_TRUE(
      torch::equal(torch::_reshape_alias(x, {2, 2}, {1, 2}), torch::as_strided(x, {2, 2}, {1, 2})));
  EXPECT_TRUE(torch::equal(torch::_reshape_alias(x, {9}, {1}), x.view({-1})));
  EXPECT_EQ(torch::_reshape_alias(x, {9}, {1}).data_ptr(), x.data_ptr());
  auto y = torch::randn({3, 3}, torch::requires_grad(true));
  auto z = torch::clone(y).detach().requires_grad_(true);
  (y * y).view({-1}).mean().backward();
  torch::_reshape_alias(z * z, {9}, {1}).mean().backward();
  EXPECT_TRUE(torch::allclose(y.grad(), z.grad()));
}

TEST(LibtorchApiCompile, SmoothL1LossBetaArgumentAndReductionTypes) {
  auto input = torch::tensor({0.1, 1.5, 10.0}, torch::dtype(torch::kFloat).requires_grad(true));
  auto target = torch::tensor({0., 1., 5.}, torch::kFloat);
  // PyTorch 1.13: F.smooth_l1_loss(input, target, beta=0.5) = 1.67
  auto loss = F::smooth_l1_loss(input, target, /*reduction=*/torch::kMean, /*beta=*/0.5);
  EXPECT_NEAR(loss.item<float>(), 1.67f, 1e-6);
  auto sum = F::smooth_l1_loss(input, target, torch::kSum, 0.5);
  EXPECT_NEAR(sum.item<float>(), 5.01f, 1e-5);
  std::vector<torch::nn::TripletMarginWithDistanceLossOptions::reduction_t> reductions = {
      torch::kSum, torch::kMean, torch::kNone};
  EXPECT_EQ(reductions.size(), 3u);
  static_assert(std::is_same_v<torch::nn::MSELossOptions::reduction_t,
                               std::decay_t<decltype(torch::nn::MSELossOptions().reduction())>>);
}

struct DefaultArgsModule : torch::nn::Module {
  double forward(int a, int b = 2, double c = 3.0) { return a + b + c; }

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, torch::nn::AnyValue(2)}, {2, torch::nn::AnyValue(3.0)})
};

struct NoDefaultsModule : torch::nn::Module {
  int forward(int a, int b) { return a + b; }
};

std::string any_forward_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(LibtorchApiCompile, AnyModuleFillsForwardDefaultArguments) {
  torch::nn::AnyModule any(DefaultArgsModule{});
  EXPECT_EQ(any.forward<double>(1), 6.0);
  EXPECT_EQ(any.forward<double>(1, 3), 7.0);
  EXPECT_EQ(any.forward<double>(1, 3, 5.0), 9.0);
  EXPECT_NE(any_forward_error([&] { any.forward(); })
                .find("forward() method expects at least 1 argument(s) and at most 3 "
                      "argument(s), but received 0."),
            std::string::npos);
  EXPECT_NE(any_forward_error([&] { any.forward(1, 2, 3.0, 4); }).find("but received 4."),
            std::string::npos);
  torch::nn::AnyModule plain(NoDefaultsModule{});
  EXPECT_NE(any_forward_error([&] {
              plain.forward(1);
            }).find("forward() method expects 2 argument(s), but received 1. If "),
            std::string::npos);
  EXPECT_EQ(any_forward_error([&] { plain.forward(1, 2, 3); }).find("If "), std::string::npos);
  // Assigning a module to an AnyModule.
  plain = std::make_shared<DefaultArgsModule>();
  EXPECT_EQ(plain.forward<double>(2), 7.0);
}

TEST(LibtorchApiCompile, LibraryModulesWithDefaultArgumentsRunInSequential) {
  torch::nn::Sequential seq(torch::nn::ConvTranspose2d(2, 3, 3), torch::nn::ReLU());
  auto x = torch::randn({1, 2, 4, 4});
  EXPECT_EQ(seq->forward(x).sizes(), torch::IntArrayRef({1, 3, 6, 6}));
  torch::nn::AnyModule gru(torch::nn::GRU(4, 5));
  auto out = gru.forward<std::tuple<torch::Tensor, torch::Tensor>>(torch::randn({2, 1, 4}));
  EXPECT_EQ(std::get<0>(out).sizes(), torch::IntArrayRef({2, 1, 5}));
  torch::nn::AnyModule lstm(torch::nn::LSTMCell(4, 5));
  auto cell = lstm.forward<std::tuple<torch::Tensor, torch::Tensor>>(torch::randn({3, 4}));
  EXPECT_EQ(std::get<1>(cell).sizes(), torch::IntArrayRef({3, 5}));
  torch::nn::AnyModule bag(torch::nn::EmbeddingBag(10, 3));
  EXPECT_EQ(bag.forward(torch::tensor({{1, 2}, {3, 4}})).sizes(), torch::IntArrayRef({2, 3}));
  torch::nn::AnyModule encoder(
      torch::nn::TransformerEncoderLayer(torch::nn::TransformerEncoderLayerOptions(8, 2)));
  EXPECT_EQ(encoder.forward(torch::randn({3, 1, 8})).sizes(), torch::IntArrayRef({3, 1, 8}));
}

int64_t first_of_optional_list(c10::OptionalIntArrayRef list) { return list.value()[0]; }

// Note [Optional list arguments]: a single value converts at the call site, so the list refers to
// a temporary that lives for the call (libtorch's OptionalArrayRefTest.DanglingPointerFix).
TEST(LibtorchApiCompile, OptionalListFromASingleValue) {
  EXPECT_EQ(first_of_optional_list(300), 300);
  EXPECT_EQ(first_of_optional_list({400}), 400);
  EXPECT_EQ(first_of_optional_list(int64_t(5)), 5);
  std::vector<int64_t> dims = {7, 8};
  EXPECT_EQ(first_of_optional_list(dims), 7);
  EXPECT_EQ(first_of_optional_list(std::optional<std::vector<int64_t>>(dims)), 7);
  EXPECT_FALSE(c10::OptionalIntArrayRef(std::nullopt).has_value());
  auto x = torch::randn({4, 3});
  EXPECT_EQ(x.var(0).numel(), 3);
  EXPECT_EQ(x.std(0, /*unbiased=*/true).numel(), 3);
  EXPECT_EQ(std::get<0>(torch::std_mean(x, 1)).numel(), 4);
}

// libtorch's functional.cpp compares antialiased interpolation with its internal kernels; brasa has
// none, and says so rather than ignoring the option.
TEST(LibtorchApiCompile, InterpolateRefusesAntialias) {
  auto x = torch::rand({1, 1, 8, 8});
  auto options = F::InterpolateFuncOptions().size(std::vector<int64_t>{3, 3}).align_corners(false);
  EXPECT_EQ(F::interpolate(x, options.mode(torch::kBilinear)).sizes(),
            torch::IntArrayRef({1, 1, 3, 3}));
  EXPECT_THROW(F::interpolate(x, F::InterpolateFuncOptions(options).antialias(true)),
               c10::NotImplementedError);
  EXPECT_THROW(
      F::interpolate(x, F::InterpolateFuncOptions(options).mode(torch::kBicubic).antialias(true)),
      c10::NotImplementedError);
  EXPECT_THROW(F::interpolate(x, F::InterpolateFuncOptions()
                                     .size(std::vector<int64_t>{3, 3})
                                     .mode(torch::kNearest)
                                     .antialias(true)),
               c10::Error);
}

TEST(LibtorchApiCompile, AmbiguousDefaultsTestOp) {
  auto tmp = at::empty({}, at::kCPU);
  EXPECT_EQ(at::_test_ambiguous_defaults(tmp).item<int64_t>(), 1);
  EXPECT_EQ(at::_test_ambiguous_defaults(tmp, 1, 1).item<int64_t>(), 1);
  EXPECT_EQ(at::_test_ambiguous_defaults(tmp, 2, "2").item<int64_t>(), 2);
  EXPECT_THROW(at::_test_ambiguous_defaults(tmp, 2), c10::Error);
  EXPECT_THROW(at::_test_ambiguous_defaults(tmp, 1, "2"), c10::Error);
}

}  // namespace
