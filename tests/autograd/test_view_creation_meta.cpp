// Views made in no-grad mode or InferenceMode (Note [View creation meta]): the kind each records,
// how a view of a view inherits it, and libtorch 1.13's errors when such a view, or its base, is
// written in place once grad mode is back. Expected behaviour is libtorch's (its test_api
// inference_mode.cpp and grad_mode.cpp, and torch 1.13's Python API).

#include <gtest/gtest.h>

#include <utility>

#include "brasa/brasa.h"
#include "support/throws_with.h"

namespace brasa {
namespace {

using autograd::creation_meta;
using autograd::CreationMeta;

constexpr const char* kNoGradWrite =
    "A view was created in no_grad mode and is being modified inplace";
constexpr const char* kInferenceWrite =
    "A view was created in inference mode and is being modified inplace";
constexpr const char* kInferenceRebase =
    "A view was created in inference mode and its base or another view of its base has been "
    "modified inplace";

// A non-leaf that requires grad (or a plain tensor): in-place writes to its views are allowed.
Tensor creation_meta_base(bool requires_grad) {
  return ones({1, 2, 3}).set_requires_grad(requires_grad).clone();
}

// a.view({2, 3}) made in no-grad mode and in InferenceMode.
std::pair<Tensor, Tensor> views_made_in_each_mode(const Tensor& a) {
  std::pair<Tensor, Tensor> views;
  {
    NoGradGuard no_grad;
    views.first = a.view({2, 3});
  }
  {
    InferenceMode guard;
    views.second = a.view({2, 3});
  }
  return views;
}

TEST(ViewCreationMeta, EachModeRecordsItsKind) {
  Tensor a = creation_meta_base(true);
  EXPECT_EQ(creation_meta(a), CreationMeta::DEFAULT);  // no view
  EXPECT_EQ(creation_meta(a.view({2, 3})), CreationMeta::DEFAULT);
  {
    NoGradGuard no_grad;
    EXPECT_EQ(creation_meta(a.view({2, 3})), CreationMeta::NO_GRAD_MODE);
  }
  {
    InferenceMode guard;
    Tensor v = a.view({2, 3});
    EXPECT_EQ(creation_meta(v), CreationMeta::INFERENCE_MODE);
    EXPECT_FALSE(v.is_inference());
    EXPECT_TRUE(v.requires_grad());
    EXPECT_TRUE(v.is_leaf());
    v.mul_(2);  // allowed inside InferenceMode
    EXPECT_EQ(a._version(), v._version());
  }
}

TEST(ViewCreationMeta, AViewOfAViewKeepsTheStricterKind) {
  Tensor a = creation_meta_base(true);
  auto [no_grad_view, inference_view] = views_made_in_each_mode(a);
  EXPECT_EQ(creation_meta(no_grad_view.view({6})), CreationMeta::NO_GRAD_MODE);
  {
    NoGradGuard no_grad;
    EXPECT_EQ(creation_meta(inference_view.view({6})), CreationMeta::INFERENCE_MODE);
  }
  {
    InferenceMode guard;
    EXPECT_EQ(creation_meta(no_grad_view.view({6})), CreationMeta::INFERENCE_MODE);
    for (const Tensor& part : a.view({2, 3}).split_with_sizes({1, 1}))
      EXPECT_EQ(creation_meta(part), CreationMeta::INFERENCE_MODE);
  }
  // A view of an inference tensor is no view at all.
  Tensor inference_tensor;
  {
    InferenceMode guard;
    inference_tensor = ones({2, 3});
    EXPECT_EQ(creation_meta(inference_tensor.view({6})), CreationMeta::DEFAULT);
  }
}

TEST(ViewCreationMeta, WritingSuchAViewWithGradModeOnIsRefused) {
  Tensor a = creation_meta_base(true);
  auto [no_grad_view, inference_view] = views_made_in_each_mode(a);
  EXPECT_THROWS_CONTAINING(RuntimeError, no_grad_view.mul_(2), kNoGradWrite);
  EXPECT_THROWS_CONTAINING(RuntimeError, no_grad_view.mul_(2), "(mul_ on a view of sizes [2, 3]");
  EXPECT_THROWS_CONTAINING(RuntimeError, inference_view.add_(1), kInferenceWrite);
  EXPECT_THROWS_CONTAINING(RuntimeError, inference_view.view({6}).add_(1), kInferenceWrite);
  // A leaf base's view made in InferenceMode reports the creation mode first, as libtorch.
  Tensor leaf = ones({2, 3}).set_requires_grad(true);
  Tensor leaf_view;
  {
    InferenceMode guard;
    leaf_view = leaf.view_as(leaf);
  }
  EXPECT_THROWS_CONTAINING(RuntimeError, leaf_view.add_(1), kInferenceWrite);
  // With grad mode off the write is fine.
  NoGradGuard no_grad;
  no_grad_view.mul_(2);
  inference_view.mul_(2);
}

TEST(ViewCreationMeta, WritingAViewOfATensorWithoutGradIsAllowed) {
  Tensor a = creation_meta_base(false);
  auto [no_grad_view, inference_view] = views_made_in_each_mode(a);
  no_grad_view.mul_(2);
  inference_view.mul_(2);
  EXPECT_FALSE(inference_view.requires_grad());
  a.mul_(2);
  EXPECT_EQ(inference_view.grad_fn(), nullptr);
  EXPECT_DOUBLE_EQ(inference_view.sum().item<double>(), 48.0);
}

TEST(ViewCreationMeta, ItsGradFnAfterTheBaseWasWrittenIsRefused) {
  Tensor a = creation_meta_base(true);
  Tensor inference_view;
  {
    InferenceMode guard;
    inference_view = a.view({2, 3});
  }
  EXPECT_EQ(inference_view.grad_fn(), nullptr);  // unwritten: a leaf
  a.mul_(1);
  EXPECT_THROWS_CONTAINING(RuntimeError, inference_view.grad_fn(), kInferenceRebase);
  EXPECT_THROWS_CONTAINING(RuntimeError, inference_view * 2, kInferenceRebase);
}

TEST(ViewCreationMeta, OpsOnSuchAViewRequireGradAsItsBase) {
  // libtorch's GradModeTest.TestRequiresGradViewOpExiting: the view answers requires_grad with its
  // base, so results of ops on it require grad, but no gradient reaches the view (a leaf without
  // its own accumulator).
  Tensor a = creation_meta_base(true);
  Tensor v;
  {
    NoGradGuard no_grad;
    v = a.view({2, 3});
  }
  Tensor y = v * v;
  EXPECT_TRUE(y.requires_grad());
  y.backward(ones_like(y));
  EXPECT_FALSE(v.grad().defined());
}

}  // namespace
}  // namespace brasa
