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

}  // namespace
