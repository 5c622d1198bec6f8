// A leaf's first gradient becomes its .grad without a copy when nothing else can see its memory,
// a view included (Note [Stealing a view gradient] in src/autograd/history.cpp), and is copied when
// something else can.
#include <gtest/gtest.h>

#include "brasa/brasa.h"

using namespace brasa;
using autograd::AutogradContext;
using autograd::variable_list;

namespace {

const void* g_buffer = nullptr;  // the memory the last backward below gave its gradient in
Tensor g_kept;                   // holds that memory when a test asks for it
bool g_keep = false;

// Its gradient is a contiguous view of a fresh buffer, as a Linear's weight gradient is.
struct GradientAsAView : autograd::Function<GradientAsAView> {
  static Tensor forward(AutogradContext*, Tensor w) { return w * 1; }
  static variable_list backward(AutogradContext*, variable_list g) {
    Tensor buffer = (g[0] * 3).reshape({-1}).clone();
    g_buffer = buffer.data_ptr();
    if (g_keep) g_kept = buffer;
    return {buffer.view({2, 3})};
  }
};

}  // namespace

TEST(AccumulateGrad, AViewNothingElseHoldsBecomesTheGradWithoutACopy) {
  g_keep = false;
  Tensor w = ones({2, 3}).set_requires_grad(true);
  GradientAsAView::apply(w).sum().backward();
  ASSERT_TRUE(w.grad().defined());
  EXPECT_EQ(w.grad().data_ptr(), g_buffer);
  EXPECT_FALSE(w.grad().is_view());
  EXPECT_TRUE(w.grad().equal(full({2, 3}, 3.0f)));
}

TEST(AccumulateGrad, AViewWhoseBaseIsHeldElsewhereIsCopied) {
  g_keep = true;
  Tensor w = ones({2, 3}).set_requires_grad(true);
  GradientAsAView::apply(w).sum().backward();
  g_keep = false;
  EXPECT_NE(w.grad().data_ptr(), g_buffer);
  w.mutable_grad().add_(1);
  EXPECT_TRUE(g_kept.equal(full({6}, 3.0f)));  // the holder's memory is not the grad's
  EXPECT_TRUE(w.grad().equal(full({2, 3}, 4.0f)));
  g_kept = Tensor();
}

TEST(AccumulateGrad, ALinearWeightGradientIsAPlainContiguousTensor) {
  nn::Linear lin(4, 3);
  lin(ones({5, 4})).sum().backward();
  const Tensor& g = lin->weight.grad();
  EXPECT_FALSE(g.is_view());
  EXPECT_TRUE(g.is_contiguous());
  EXPECT_EQ(g.nbytes(), g.storage().nbytes());
  EXPECT_TRUE(g.equal(full({3, 4}, 5.0f)));
}
