// at::meta:: (libtorch's <ATen/MetaFunctions.h>, Note [at::meta functions]): tensors of any
// device in, the op's result as a meta tensor out, with the shapes and dtypes libtorch 1.13 gives
// and the op's own errors.

#include <ATen/MetaFunctions.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "support/throws_with.h"

namespace {

TEST(CompatMetaFunctions, BroadcastingAddOfCpuTensors) {
  auto a = at::ones({4}, at::kFloat);
  auto b = at::ones({3, 4}, at::kFloat);
  auto out = at::meta::add(a, b);
  EXPECT_EQ(out.device(), c10::kMeta);
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(out.scalar_type(), at::kFloat);
  EXPECT_EQ(a.device(), c10::kCPU);
  // Meta tensors in give the same as at::add on them.
  EXPECT_EQ(at::add(a.to(c10::kMeta), b.to(c10::kMeta)).sizes(), out.sizes());
  // Type promotion follows the op's rule: int + double scalar is float (the default dtype).
  EXPECT_EQ(at::meta::add(at::ones({2}, at::kInt), 1.5).scalar_type(), at::kFloat);
}

TEST(CompatMetaFunctions, ReductionsTuplesAndLists) {
  auto x = at::randn({2, 3, 5});
  auto s = at::meta::sum(x, {1}, /*keepdim=*/true);
  EXPECT_TRUE(s.is_meta());
  EXPECT_EQ(s.sizes(), (std::vector<int64_t>{2, 1, 5}));
  auto [values, indices] = at::meta::sort(x, 2, true);
  EXPECT_EQ(values.sizes(), x.sizes());
  EXPECT_EQ(indices.scalar_type(), at::kLong);
  EXPECT_TRUE(indices.is_meta());
  auto c = at::meta::cat({x, x.to(c10::kMeta)}, 1);
  EXPECT_EQ(c.sizes(), (std::vector<int64_t>{2, 6, 5}));
  auto w = at::meta::where(x > 0, x, at::zeros({5}, at::kDouble));
  EXPECT_EQ(w.scalar_type(), at::kDouble);
  EXPECT_EQ(w.sizes(), x.sizes());
}

TEST(CompatMetaFunctions, ShapeErrorsAreTheOps) {
  auto a = at::ones({2, 3});
  auto b = at::ones({4});
  EXPECT_THROWS_CONTAINING(c10::Error, at::meta::add(a, b), "add");
  EXPECT_THROW(at::meta::cat({a, b}, 0), c10::Error);
}

TEST(CompatMetaFunctions, InputsThatRequireGradGiveAPlainMetaResult) {
  auto x = at::ones({2, 2}, torch::requires_grad());
  auto y = at::meta::mul(x, x);
  EXPECT_TRUE(y.is_meta());
  EXPECT_FALSE(y.requires_grad());
  EXPECT_EQ(x.device(), c10::kCPU);
}

// libtorch's other forms of its structured ops: NAME_out / NAME_outf resize and check a meta out
// as the op's out= form does; the in-place NAME_ checks that the result fits self and returns it.
TEST(CompatMetaFunctions, OutFormsResizeAMetaOut) {
  auto a = at::ones({4}, at::kFloat);
  auto b = at::ones({3, 4}, at::kFloat);
  auto out = at::empty({0}, at::TensorOptions(at::kFloat).device(c10::kMeta));
  at::Tensor& r = at::meta::add_out(out, a, b);
  EXPECT_TRUE(r.is_same(out));
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{3, 4}));
  auto out2 = at::empty({0}, at::TensorOptions(at::kDouble).device(c10::kMeta));
  EXPECT_TRUE(at::meta::mul_outf(a, b, out2).is_same(out2));
  EXPECT_EQ(out2.sizes(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(out2.scalar_type(), at::kDouble);
  auto s = at::empty({0}, at::TensorOptions(at::kFloat).device(c10::kMeta));
  at::meta::sum_out(s, at::randn({2, 3, 5}), {1}, /*keepdim=*/true);
  EXPECT_EQ(s.sizes(), (std::vector<int64_t>{2, 1, 5}));
  auto mantissa = at::empty({0}, at::TensorOptions(at::kFloat).device(c10::kMeta));
  auto exponent = at::empty({0}, at::TensorOptions(at::kInt).device(c10::kMeta));
  at::meta::frexp_outf(at::ones({2, 2}), mantissa, exponent);
  EXPECT_EQ(exponent.sizes(), (std::vector<int64_t>{2, 2}));
  // The op's out= checks: a result that can't be cast to out's dtype, a CPU out.
  auto int_out = at::empty({0}, at::TensorOptions(at::kInt).device(c10::kMeta));
  EXPECT_THROWS_CONTAINING(c10::Error, at::meta::add_out(int_out, a, b), "can't be cast");
  auto cpu_out = at::empty({0});
  EXPECT_THROWS_CONTAINING(c10::Error, at::meta::add_out(cpu_out, a, b),
                           "expected out tensor to have device meta, but got cpu");
  EXPECT_EQ(cpu_out.numel(), 0);
}

TEST(CompatMetaFunctions, InPlaceFormsCheckTheResultFitsSelf) {
  auto self = at::ones({3, 4});
  at::Tensor& r = at::meta::add_(self, at::ones({4}), 2);
  EXPECT_TRUE(r.is_same(self));
  EXPECT_EQ(self.device(), c10::kCPU);
  EXPECT_EQ(self.sum().item<double>(), 12.0);  // untouched
  EXPECT_EQ(self._version(), 0u);
  at::meta::sqrt_(self);
  // A broadcast result larger than self, or a dtype self can't hold, is the op's in-place error.
  auto small = at::ones({4});
  EXPECT_THROW(at::meta::mul_(small, at::ones({3, 4})), c10::Error);
  auto ints = at::ones({4}, at::kInt);
  EXPECT_THROWS_CONTAINING(c10::Error, at::meta::div_(ints, at::ones({4})), "can't be cast");
  EXPECT_THROWS_CONTAINING(c10::Error, at::meta::mul_(ints, at::full({4}, 1.5)), "can't be cast");
  // Every in-place op that writes values has the form: fills, masks, index ops, random fills.
  at::meta::masked_fill_(self, self > 0, 2.0);
  at::meta::index_fill_(self, 0, at::zeros({1}, at::kLong), 1.0);
  at::meta::uniform_(self);
  at::meta::tril_(self);
  EXPECT_EQ(at::meta::triu(self, 1).sizes(), self.sizes());
  EXPECT_THROW(at::meta::masked_fill_(small, at::ones({3, 4}, at::kBool), 2.0), c10::Error);
  EXPECT_EQ(self.sum().item<double>(), 12.0);
}

}  // namespace
