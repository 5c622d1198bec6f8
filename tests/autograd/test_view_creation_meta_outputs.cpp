// libtorch's two other view kinds (Note [View creation meta]): the outputs of view ops that return
// several views (Note [Multi-output views]) and the views a custom Function returns (Note [Custom
// Function outputs]). Which ops, which writes and which messages: torch 1.13's Python API, whose
// autograd is libtorch's (the expected texts are what it prints).

#include <gtest/gtest.h>

#include "brasa/brasa.h"
#include "support/throws_with.h"

namespace brasa {
namespace {

using autograd::AutogradContext;
using autograd::creation_meta;
using autograd::CreationMeta;
using autograd::variable_list;

constexpr const char* kMultiOutputKind =
    "This view is the output of a function that returns multiple views.";
constexpr const char* kCustomFunctionKind =
    "This view was created inside a custom Function (or because an input was returned as-is) and "
    "the autograd logic to handle view+inplace would override the custom backward associated with "
    "the custom Function, leading to incorrect gradients.";
constexpr const char* kWritten = " is a view and is being modified inplace. ";
constexpr const char* kBaseWritten =
    " is a view and its base or another view of its base has been modified inplace. ";
constexpr const char* kNoGradHeader =
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. ";

std::string expected(const char* head, const char* what, const char* kind) {
  return std::string(head) + what + kind;
}

// A non-leaf 4x6 tensor that requires grad (or a plain one).
Tensor multi_output_base(bool requires_grad) {
  return ones({4, 6}).set_requires_grad(requires_grad).clone();
}

TEST(MultiOutputViews, TheOutputsOfEverySplitRecordTheKind) {
  Tensor a = multi_output_base(true);
  for (const auto& parts : {a.split(2), a.split({1, 3}), a.split_with_sizes({1, 3}), a.chunk(2),
                            a.unbind(), a.split(3, 1), a.split(4), a.chunk(1), a.unbind(1)}) {
    for (const Tensor& part : parts)
      EXPECT_EQ(creation_meta(part), CreationMeta::MULTI_OUTPUT_NODE);
  }
  // Composites of slices, and the unsafe forms, whose outputs libtorch makes no views.
  for (const auto& parts : {a.tensor_split(2), a.tensor_split({1, 2}), a.hsplit(2), a.vsplit(2),
                            a.view({2, 2, 6}).dsplit(2), a.unsafe_split(2), a.unsafe_chunk(2),
                            a.unsafe_split_with_sizes({1, 3})}) {
    for (const Tensor& part : parts) EXPECT_EQ(creation_meta(part), CreationMeta::DEFAULT);
  }
  for (const Tensor& part : a.unsafe_split(2)) part.mul_(2);
  // Views of integer tensors are no autograd views.
  EXPECT_EQ(creation_meta(ones({4}, kLong).split(2)[0]), CreationMeta::DEFAULT);
}

TEST(MultiOutputViews, WritingOneWithGradModeOnIsRefused) {
  Tensor a = multi_output_base(true);
  auto parts = a.split(2);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].mul_(2),
                           expected("Output 0 of SplitBackward0", kWritten, kMultiOutputKind));
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[1].add_(1),
                           expected("Output 1 of SplitBackward0", kWritten, kMultiOutputKind));
  EXPECT_THROWS_CONTAINING(RuntimeError, a.split({1, 3})[1].mul_(2),
                           "Output 1 of SplitWithSizesBackward0 is a view");
  EXPECT_THROWS_CONTAINING(RuntimeError, a.chunk(2)[0].mul_(2), "Output 0 of SplitBackward0");
  EXPECT_THROWS_CONTAINING(RuntimeError, a.unbind()[2].sub_(1),
                           expected("Output 2 of UnbindBackward0", kWritten, kMultiOutputKind));
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].copy_(ones({2, 6})), kMultiOutputKind);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].fill_(1), kMultiOutputKind);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].zero_(), kMultiOutputKind);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].mul_(2), "(mul_ on a view of sizes [2, 6]");
  // Before the leaf's own error, as in libtorch.
  Tensor leaf = ones({4, 6}).set_requires_grad(true);
  EXPECT_THROWS_CONTAINING(RuntimeError, leaf.split(2)[0].mul_(2), kMultiOutputKind);
  // Nothing was written: the gradient through the outputs is unchanged.
  (parts[0] * 3).sum().backward();
  EXPECT_EQ(a._version(), 0u);
}

TEST(MultiOutputViews, ViewsOfThemKeepTheKind) {
  Tensor a = multi_output_base(true);
  auto parts = a.split(2);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].view({12}).mul_(2),
                           expected("Output 0 of ViewBackward0", kWritten, kMultiOutputKind));
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].select(0, 0).mul_(2),
                           expected("Output 0 of SelectBackward0", kWritten, kMultiOutputKind));
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].split(1)[1].mul_(2),
                           "Output 1 of SplitBackward0 is a view");
  // A view made in no-grad mode takes that kind; a split in grad mode of it is multi-output again.
  Tensor no_grad_view, no_grad_root_view;
  {
    NoGradGuard no_grad;
    no_grad_view = parts[0].view({12});
    no_grad_root_view = a.view({24});
  }
  EXPECT_EQ(creation_meta(no_grad_view), CreationMeta::NO_GRAD_MODE);
  EXPECT_THROWS_CONTAINING(RuntimeError, no_grad_view.mul_(2), kNoGradHeader);
  EXPECT_EQ(creation_meta(no_grad_root_view.split(12)[0]), CreationMeta::MULTI_OUTPUT_NODE);
  // A split made in no-grad mode or InferenceMode has that mode's kind.
  {
    NoGradGuard no_grad;
    EXPECT_EQ(creation_meta(a.split(2)[0]), CreationMeta::NO_GRAD_MODE);
  }
  {
    InferenceMode guard;
    EXPECT_EQ(creation_meta(a.split(2)[0]), CreationMeta::INFERENCE_MODE);
  }
  // A clone or a detached output is no view of the base; but a write through the detached alias
  // changes the base, so the outputs may no longer be used in grad mode.
  parts[1].clone().mul_(2);
  parts[0].detach().mul_(2);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[1].grad_fn(),
                           expected("Output 1 of SplitBackward0", kBaseWritten, kMultiOutputKind));
}

TEST(MultiOutputViews, WritesThatAutogradNeedNotRecordAreAllowed) {
  Tensor plain = multi_output_base(false);
  auto parts = plain.split(2);
  parts[0].mul_(2);
  EXPECT_DOUBLE_EQ(plain.sum().item<double>(), 36.0);
  // ... unless another input requires grad: libtorch names no grad_fn then.
  Tensor w = ones({2, 6}).set_requires_grad(true);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[1].mul_(w),
                           std::string(kNoGradHeader) + kMultiOutputKind);
  Tensor a = multi_output_base(true);
  auto grad_parts = a.split(2);
  {
    NoGradGuard no_grad;
    grad_parts[0].mul_(2);
  }
  EXPECT_DOUBLE_EQ(a.sum().item<double>(), 36.0);
}

TEST(MultiOutputViews, UsingOneAfterItsBaseWasWrittenIsRefused) {
  Tensor a = multi_output_base(true);
  auto parts = a.split(2);
  a.mul_(2);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[0].grad_fn(),
                           expected("Output 0 of SplitBackward0", kBaseWritten, kMultiOutputKind));
  EXPECT_THROWS_CONTAINING(RuntimeError, parts[1] * 2, "Output 1 of SplitBackward0");
  // A write in no-grad mode into one output counts for the others.
  Tensor b = multi_output_base(true);
  auto b_parts = b.split(2);
  {
    NoGradGuard no_grad;
    b_parts[0].mul_(2);
  }
  EXPECT_THROWS_CONTAINING(RuntimeError, b_parts[1].grad_fn(),
                           expected("Output 1 of SplitBackward0", kBaseWritten, kMultiOutputKind));
  // The base itself is still usable.
  (b * 2).sum().backward();
}

// ---- custom Functions ----

struct ReturnsAView : autograd::Function<ReturnsAView> {
  static Tensor forward(AutogradContext*, Tensor x) { return x.view({-1}); }
  static variable_list backward(AutogradContext*, variable_list g) { return {g[0].view({2, 3})}; }
};
struct ReturnsItsInput : autograd::Function<ReturnsItsInput> {
  static Tensor forward(AutogradContext*, Tensor x) { return x; }
  static variable_list backward(AutogradContext*, variable_list g) { return {g[0] * 2}; }
};
struct ReturnsAViewOfItsOwn : autograd::Function<ReturnsAViewOfItsOwn> {
  static Tensor forward(AutogradContext*, Tensor x) { return (x * 2).select(0, 0); }
  static variable_list backward(AutogradContext*, variable_list) { return {zeros({2, 3})}; }
};
struct ReturnsTwoViews : autograd::Function<ReturnsTwoViews> {
  static variable_list forward(AutogradContext*, Tensor x) { return {x[0], x[1]}; }
  static variable_list backward(AutogradContext*, variable_list g) { return {stack({g[0], g[1]})}; }
};
struct ReturnsAViewAndIndices : autograd::Function<ReturnsAViewAndIndices> {
  static variable_list forward(AutogradContext* ctx, Tensor x) {
    Tensor indices = zeros({2}, kLong);
    ctx->mark_non_differentiable({indices});
    return {x.view({-1}), indices};
  }
  static variable_list backward(AutogradContext*, variable_list g) { return {g[0].view({2, 3})}; }
};

Tensor custom_function_input(bool requires_grad) {
  return ones({2, 3}).set_requires_grad(requires_grad).clone();
}

TEST(CustomFunctionViews, WritingAReturnedViewIsRefused) {
  Tensor x = custom_function_input(true);
  Tensor y = ReturnsAView::apply(x);
  EXPECT_EQ(creation_meta(y), CreationMeta::IN_CUSTOM_FUNCTION);
  EXPECT_THROWS_CONTAINING(RuntimeError, y.mul_(2), std::string(kWritten) + kCustomFunctionKind);
  EXPECT_THROWS_CONTAINING(RuntimeError, y.mul_(2), "Output 0 of ");
  EXPECT_THROWS_CONTAINING(RuntimeError, y.copy_(ones({6})), kCustomFunctionKind);
  EXPECT_THROWS_CONTAINING(RuntimeError, y.select(0, 0).mul_(2),
                           expected("Output 0 of SelectBackward0", kWritten, kCustomFunctionKind));
  Tensor own = ReturnsAViewOfItsOwn::apply(x);
  EXPECT_THROWS_CONTAINING(RuntimeError, own.mul_(2), kCustomFunctionKind);
  // Used out of place, it differentiates through the Function; a clone is writable.
  (y * 2).sum().backward();
  EXPECT_TRUE(equal(y.clone().mul_(2), full({6}, 2.0)));
}

TEST(CustomFunctionViews, AnInputReturnedAsIsComesBackAsAView) {
  Tensor x = custom_function_input(true);
  Tensor y = ReturnsItsInput::apply(x);
  EXPECT_TRUE(y.is_view());
  EXPECT_TRUE(y._base().is_same(x));
  EXPECT_EQ(creation_meta(y), CreationMeta::IN_CUSTOM_FUNCTION);
  EXPECT_THROWS_CONTAINING(RuntimeError, y.mul_(2), kCustomFunctionKind);
  // libtorch's FunctionReturnsInput: the Function's backward runs.
  Tensor leaf = ones({1}).set_requires_grad(true);
  Tensor out = ReturnsItsInput::apply(leaf);
  EXPECT_THROWS_CONTAINING(RuntimeError, out.mul_(2), kCustomFunctionKind);  // not the leaf's
  out.backward(ones({1}));
  EXPECT_TRUE(equal(leaf.grad(), full({1}, 2.0)));
  // Without grad it is a view too; called in no-grad mode, a detached alias.
  Tensor plain = custom_function_input(false);
  Tensor plain_out = ReturnsItsInput::apply(plain);
  EXPECT_TRUE(plain_out.is_view() && !plain_out.is_same(plain));
  plain_out.mul_(2);
  EXPECT_THROWS_CONTAINING(RuntimeError, plain_out.mul_(ones({2, 3}).set_requires_grad(true)),
                           std::string(kNoGradHeader) + kCustomFunctionKind);
  NoGradGuard no_grad;
  Tensor detached = ReturnsItsInput::apply(x);
  EXPECT_FALSE(detached.requires_grad());
  EXPECT_FALSE(detached.is_same(x));
}

TEST(CustomFunctionViews, SeveralDifferentiableOutputsMakeThemMultiOutputViews) {
  Tensor x = custom_function_input(true);
  auto two = ReturnsTwoViews::apply(x);
  EXPECT_EQ(creation_meta(two[1]), CreationMeta::MULTI_OUTPUT_NODE);
  EXPECT_THROWS_CONTAINING(RuntimeError, two[1].mul_(2), std::string(kWritten) + kMultiOutputKind);
  EXPECT_THROWS_CONTAINING(RuntimeError, two[1].mul_(2), "Output 1 of ");
  // Indices marked non-differentiable do not count.
  auto with_indices = ReturnsAViewAndIndices::apply(x);
  EXPECT_EQ(creation_meta(with_indices[0]), CreationMeta::IN_CUSTOM_FUNCTION);
  EXPECT_THROWS_CONTAINING(RuntimeError, with_indices[0].mul_(2), kCustomFunctionKind);
}

TEST(CustomFunctionViews, UsingOneAfterItsBaseWasWrittenIsRefused) {
  Tensor x = custom_function_input(true);
  Tensor y = ReturnsAView::apply(x);
  x.mul_(2);
  EXPECT_THROWS_CONTAINING(RuntimeError, y.grad_fn(),
                           std::string(kBaseWritten) + kCustomFunctionKind);
  // Called in no-grad mode, the output has no grad_fn: libtorch names the mode.
  Tensor z = custom_function_input(true);
  Tensor w;
  {
    NoGradGuard no_grad;
    w = ReturnsAView::apply(z);
  }
  EXPECT_THROWS_CONTAINING(RuntimeError, w.mul_(2),
                           std::string(kNoGradHeader) + kCustomFunctionKind);
}

// A forward that doubles its input in place, says so, and returns it with a second tensor (or
// alone).
struct DoublesInPlace : autograd::Function<DoublesInPlace> {
  static variable_list forward(AutogradContext* ctx, Tensor x, bool two) {
    x.mul_(2);
    ctx->mark_dirty({x});
    if (!two) return {x};
    return {x, x * 3};
  }
  static variable_list backward(AutogradContext*, variable_list g) {
    Tensor gx = g[0] * 2;
    if (g.size() > 1 && g[1].defined()) gx = gx + g[1] * 6;
    return {gx, Tensor()};
  }
};

// Rewriting a view's history makes the Function its base's grad_fn's only source: libtorch refuses
// a Function that writes a view input in place and returns more than one tensor.
TEST(CustomFunctionViews, AViewInputWrittenInPlaceAllowsOneOutputOnly) {
  Tensor base = custom_function_input(true);
  EXPECT_THROWS_CONTAINING(RuntimeError, DoublesInPlace::apply(base.select(0, 1), true),
                           "(anonymous namespace)::DoublesInPlace: input [3]");
  EXPECT_THROWS_CONTAINING(RuntimeError, DoublesInPlace::apply(base.select(0, 1), true),
                           ": input [3] is a view of another tensor written in place (mark_dirty), "
                           "and the Function returns 2 tensors");
  // One output: the view's history is rewritten, the gradient reaches the base.
  Tensor x = ones({2, 3}).set_requires_grad(true);
  Tensor y = x.clone();
  DoublesInPlace::apply(y.select(0, 1), false);
  y.sum().backward();
  EXPECT_TRUE(equal(x.grad(), stack({ones({3}), full({3}, 2.0)})));
  // Not a view: two outputs are fine.
  Tensor z = ones({3}).set_requires_grad(true).clone();
  variable_list both = DoublesInPlace::apply(z, true);
  EXPECT_TRUE(both[1].requires_grad());
}

struct WritesButReturnsAnother : autograd::Function<WritesButReturnsAnother> {
  static Tensor forward(AutogradContext* ctx, Tensor x, Tensor y) {
    x.mul_(2);
    ctx->mark_dirty({x});
    return y * 2;
  }
  static variable_list backward(AutogradContext*, variable_list g) { return {Tensor(), g[0] * 2}; }
};

// libtorch refuses a forward that marks an input dirty without returning it, with or without grad.
TEST(CustomFunctionViews, AnInputWrittenInPlaceMustBeReturned) {
  for (bool grad : {true, false}) {
    Tensor x = ones({4}).set_requires_grad(grad).clone(), y = ones({4}).set_requires_grad(grad);
    EXPECT_THROWS_CONTAINING(
        RuntimeError, WritesButReturnsAnother::apply(x, y),
        "WritesButReturnsAnother: 1 input(s) marked dirty (written in place) are not among the "
        "Function's 1 outputs");
  }
}

TEST(InplaceOpNames, ErrorsNameTheInPlaceOp) {
  Tensor leaf = ones({2, 3}).set_requires_grad(true);
  EXPECT_THROWS_CONTAINING(ValueError, leaf.mul_(2), "mul_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(ValueError, leaf.clamp_(0, 1), "clamp_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(ValueError, leaf.relu_(), "relu_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(ValueError, leaf.copy_(ones({2, 3})), "copy_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(ValueError, leaf.scatter_(0, zeros({1, 3}, kLong), 1.0),
                           "scatter_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(ValueError, leaf.select(0, 0).add_(1),
                           "add_: a view of a leaf Variable");
  // In-place methods written as their op and a copy back (Note [In-place op names]).
  EXPECT_THROWS_CONTAINING(ValueError, leaf.xlogy_(ones({2, 3})), "xlogy_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(ValueError, leaf.tril_(), "tril_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(ValueError, leaf.triu_(), "triu_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(
      ValueError,
      leaf.masked_fill_(ones({2, 3}, kBool), scalar_tensor(1.0).set_requires_grad(true)),
      "masked_fill_: a leaf Variable");
  EXPECT_THROWS_CONTAINING(ValueError, leaf.copy_(ones({2, 3})), "copy_: a leaf Variable");
  Tensor parts = multi_output_base(true);
  EXPECT_THROWS_CONTAINING(RuntimeError, parts.split(2)[0].sigmoid_(),
                           "(sigmoid_ on a view of sizes [2, 6]");
  EXPECT_THROWS_CONTAINING(RuntimeError, parts.split(2)[0].index_fill_(0, zeros({1}, kLong), 1.0),
                           "(index_fill_ on a view of sizes [2, 6]");
}

}  // namespace
}  // namespace brasa
