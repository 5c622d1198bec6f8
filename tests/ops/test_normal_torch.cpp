// at::normal's overloads (Tensor/double mean and std, the factory form, out=) against live
// PyTorch 1.13: after manual_seed(s) the values must be libtorch's bit for bit, on both sides of
// the 16-element block form, for float and double, broadcast, non-contiguous, 0-d and empty
// arguments; the gradients are zeros under libtorch's node names; bad std throws.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <string>
#include <vector>

#include "support/torch_oracle.h"

namespace {

using brasa::testing_oracle::run_python_shared;
using torch::Tensor;

const char* kBody = R"PY(
torch.set_default_dtype(torch.float32)
def means(n, dt): return (torch.arange(n, dtype=torch.float64) * 0.37 - 2).to(dt)
def stds(n, dt): return (torch.arange(n, dtype=torch.float64) % 5 * 0.5 + 0.25).to(dt)
for seed in [0, 7]:
    for dn, dt in [('f32', torch.float32), ('f64', torch.float64)]:
        for n in [1, 7, 16, 17, 100]:
            k = '%d_%s_%d' % (seed, dn, n)
            torch.manual_seed(seed); pr('tf_' + k, torch.normal(means(n, dt), 1.5))
            torch.manual_seed(seed); pr('ft_' + k, torch.normal(0.75, stds(n, dt)))
            torch.manual_seed(seed); pr('tt_' + k, torch.normal(means(n, dt), stds(n, dt)))
            torch.manual_seed(seed); pr('ff_' + k, torch.normal(-0.5, 2.0, (n,), dtype=dt))
# broadcast, non-contiguous, mixed dtypes, 0-d, empty
torch.manual_seed(3); pr('bcast', torch.normal(means(20, torch.float32).reshape(4, 5), stds(5, torch.float32)))
torch.manual_seed(3); pr('bcast_std', torch.normal(means(5, torch.float32), stds(20, torch.float32).reshape(4, 5)))
torch.manual_seed(3); pr('nc_mean', torch.normal(means(30, torch.float32).reshape(5, 6).t(), 0.5))
torch.manual_seed(3); pr('nc_std', torch.normal(1.0, stds(30, torch.float64).reshape(5, 6).t()))
torch.manual_seed(3); pr('mixed', torch.normal(means(20, torch.float32), stds(20, torch.float64)))
torch.manual_seed(3); pr('zero_d', torch.normal(torch.tensor(2.0), torch.tensor(0.5)))
torch.manual_seed(3); pr('zero_d_f', torch.normal(torch.tensor(2.0), 3.0))
torch.manual_seed(3); pr('std_zero', torch.normal(means(20, torch.float32), 0.0))
torch.manual_seed(3); pr('after_empty', torch.cat([torch.normal(torch.zeros(0), 1.0), torch.randn(3)]))
g = torch.Generator(); g.manual_seed(42)
pr('gen', torch.normal(means(33, torch.float32), stds(33, torch.float32), generator=g))
pr('gen_ff', torch.normal(1.0, 2.0, (3, 4), generator=g))
torch.manual_seed(5); o = torch.empty(17); torch.normal(means(17, torch.float32), 2.0, out=o); pr('out_tf', o)
torch.manual_seed(5); o = torch.empty(17, dtype=torch.float64); torch.normal(0.5, stds(17, torch.float32), out=o); pr('out_ft', o)
torch.manual_seed(5); o = torch.empty(2); torch.normal(means(20, torch.float32).reshape(4, 5), stds(5, torch.float32), out=o); pr('out_tt', o)
torch.manual_seed(5); o = torch.empty(3); torch.normal(0.0, 1.0, (20,), out=o); pr('out_ff', o)
)PY";

const std::map<std::string, std::vector<double>>& torch_values() {
  return run_python_shared(kBody);
}

void expect_same(const std::string& key, const Tensor& t) {
  brasa::testing_oracle::expect_equal(key, t, torch_values());
}

Tensor means(int64_t n, torch::ScalarType dt) {
  return (torch::arange(n, torch::kDouble) * 0.37 - 2).to(dt);
}
Tensor stds(int64_t n, torch::ScalarType dt) {
  return (torch::arange(n, torch::kDouble).remainder(5) * 0.5 + 0.25).to(dt);
}

}  // namespace

TEST(NormalTorch, EveryOverloadGivesLibtorchsValues) {
  for (int seed : {0, 7}) {
    for (const auto& [dn, dt] : {std::pair<std::string, torch::ScalarType>{"f32", torch::kFloat},
                                 {"f64", torch::kDouble}}) {
      for (int64_t n : {1, 7, 16, 17, 100}) {
        const std::string k = std::to_string(seed) + "_" + dn + "_" + std::to_string(n);
        torch::manual_seed(seed);
        Tensor tf = at::normal(means(n, dt), 1.5);
        EXPECT_EQ(tf.scalar_type(), dt);
        expect_same("tf_" + k, tf);
        torch::manual_seed(seed);
        Tensor ft = at::normal(0.75, stds(n, dt));
        EXPECT_EQ(ft.scalar_type(), dt);
        expect_same("ft_" + k, ft);
        torch::manual_seed(seed);
        expect_same("tt_" + k, at::normal(means(n, dt), stds(n, dt)));
        torch::manual_seed(seed);
        Tensor ff = torch::normal(-0.5, 2.0, {n}, c10::nullopt, torch::TensorOptions(dt));
        EXPECT_EQ(ff.scalar_type(), dt);
        expect_same("ff_" + k, ff);
      }
    }
  }
}

TEST(NormalTorch, BroadcastNonContiguousMixedZeroDimAndEmpty) {
  torch::manual_seed(3);
  Tensor b = at::normal(means(20, torch::kFloat).reshape({4, 5}), stds(5, torch::kFloat));
  EXPECT_EQ(b.sizes(), torch::IntArrayRef({4, 5}));
  expect_same("bcast", b);
  torch::manual_seed(3);
  Tensor bs = at::normal(means(5, torch::kFloat), stds(20, torch::kFloat).reshape({4, 5}));
  EXPECT_EQ(bs.sizes(), torch::IntArrayRef({4, 5}));
  expect_same("bcast_std", bs);
  torch::manual_seed(3);
  Tensor nc = at::normal(means(30, torch::kFloat).reshape({5, 6}).t(), 0.5);
  EXPECT_TRUE(nc.is_contiguous());
  expect_same("nc_mean", nc);
  torch::manual_seed(3);
  expect_same("nc_std", at::normal(1.0, stds(30, torch::kDouble).reshape({5, 6}).t()));
  torch::manual_seed(3);
  Tensor mixed = at::normal(means(20, torch::kFloat), stds(20, torch::kDouble));
  EXPECT_EQ(mixed.scalar_type(), torch::kFloat);  // mean's dtype
  expect_same("mixed", mixed);
  torch::manual_seed(3);
  Tensor z = at::normal(torch::tensor(2.0), torch::tensor(0.5));
  EXPECT_EQ(z.dim(), 0);
  expect_same("zero_d", z);
  torch::manual_seed(3);
  expect_same("zero_d_f", at::normal(torch::tensor(2.0), 3.0));
  torch::manual_seed(3);
  expect_same("std_zero", at::normal(means(20, torch::kFloat), 0.0));
  torch::manual_seed(3);
  Tensor e = at::normal(torch::zeros({0}), 1.0);
  EXPECT_EQ(e.numel(), 0);
  expect_same("after_empty", torch::cat({e, torch::randn({3})}));
}

TEST(NormalTorch, GeneratorAndOutForms) {
  auto g = brasa::make_generator(42);  // torch.Generator().manual_seed(42)
  expect_same("gen", at::normal(means(33, torch::kFloat), stds(33, torch::kFloat), g));
  expect_same("gen_ff", at::normal(1.0, 2.0, {3, 4}, g));

  torch::manual_seed(5);
  Tensor o = torch::empty({17});
  Tensor& r = at::normal_out(o, means(17, torch::kFloat), 2.0);
  EXPECT_TRUE(r.is_same(o));
  expect_same("out_tf", o);
  torch::manual_seed(5);
  o = torch::empty({17}, torch::kDouble);  // draws in out's dtype
  at::normal_out(o, 0.5, stds(17, torch::kFloat));
  expect_same("out_ft", o);
  torch::manual_seed(5);
  o = torch::empty({2});
  at::normal_out(o, means(20, torch::kFloat).reshape({4, 5}), stds(5, torch::kFloat));
  EXPECT_EQ(o.sizes(), torch::IntArrayRef({4, 5}));
  expect_same("out_tt", o);
  torch::manual_seed(5);
  o = torch::empty({3});
  at::normal_out(o, 0.0, 1.0, {20});
  expect_same("out_ff", o);
  // libtorch draws normal_out(out, mean, std) in out's shape broadcast with mean's (an empty out
  // of another shape is an error there)
  o = torch::empty({4, 1});
  at::normal_out(o, means(17, torch::kFloat), 2.0);
  EXPECT_EQ(o.sizes(), torch::IntArrayRef({4, 17}));
  o = torch::empty({0});
  EXPECT_THROW(at::normal_out(o, means(17, torch::kFloat), 2.0), c10::Error);
}

TEST(NormalTorch, UnpackedOptionsAndRequiresGrad) {
  Tensor t = at::normal(0.0, 1.0, {2, 3}, c10::nullopt, torch::kDouble, torch::kStrided,
                        torch::Device(torch::kCPU), false);
  EXPECT_EQ(t.scalar_type(), torch::kDouble);
  EXPECT_EQ(t.sizes(), torch::IntArrayRef({2, 3}));
  Tensor d = at::normal(0.0, 1.0, {4}, c10::nullopt, c10::nullopt, c10::nullopt, c10::nullopt,
                        c10::nullopt);
  EXPECT_EQ(d.scalar_type(), torch::kFloat);
  EXPECT_THROW(
      at::normal(0.0, 1.0, {4}, c10::nullopt, c10::nullopt, c10::nullopt, c10::nullopt, true),
      c10::Error);
  Tensor leaf = torch::normal(0.0, 1.0, {3}, c10::nullopt, torch::requires_grad());
  EXPECT_TRUE(leaf.requires_grad());
  EXPECT_TRUE(leaf.is_leaf());
}

TEST(NormalTorch, GradientsAreZerosUnderLibtorchsNodes) {
  Tensor mean = torch::zeros({2, 3}, torch::requires_grad());
  Tensor std = torch::ones({3}, torch::requires_grad());
  Tensor a = at::normal(mean, 1.0);
  Tensor b = at::normal(0.5, std);
  Tensor c = at::normal(mean, std);
  EXPECT_EQ(a.grad_fn()->name(), "NormalBackward1");
  EXPECT_EQ(b.grad_fn()->name(), "NormalBackward2");
  EXPECT_EQ(c.grad_fn()->name(), "NormalBackward3");
  (a.sum() + b.sum() + c.sum()).backward();
  ASSERT_TRUE(mean.grad().defined());
  ASSERT_TRUE(std.grad().defined());
  EXPECT_TRUE(torch::equal(mean.grad(), torch::zeros({2, 3})));
  EXPECT_TRUE(torch::equal(std.grad(), torch::zeros({3})));
  {
    torch::NoGradGuard no_grad;
    EXPECT_FALSE(at::normal(mean, 1.0).requires_grad());
  }
  Tensor o = torch::empty({2, 3});
  EXPECT_THROW(at::normal_out(o, mean, 1.0), c10::Error);  // out= with grad
}

TEST(NormalTorch, BadArgumentsThrowNamingNormal) {
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const c10::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([] { at::normal(torch::zeros({3}), -1.0); }).find("normal expects std >= 0.0"),
            std::string::npos);
  EXPECT_NE(message([] {
              at::normal(torch::zeros({3}), -torch::ones({3}));
            }).find("normal expects all elements of std >= 0.0"),
            std::string::npos);
  EXPECT_NE(message([] {
              at::normal(0.0, torch::tensor({1.0, std::nan("")}));
            }).find("normal expects all elements of std >= 0.0"),
            std::string::npos);
  EXPECT_NE(message([] {
              at::normal(torch::zeros({3}), torch::ones({2}));
            }).find("normal: the shapes of mean [3] and std [2] do not broadcast"),
            std::string::npos);
  EXPECT_NE(message([] { at::normal(0.0, -1.0, {2}); }).find("normal expects std >= 0.0"),
            std::string::npos);
  EXPECT_THROW(at::normal(torch::zeros({3}, torch::kLong), 1.0), c10::Error);  // integral draws
}
