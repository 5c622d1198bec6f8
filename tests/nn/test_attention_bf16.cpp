// scaled_dot_product_attention on BFloat16 (Note [BFloat16 attention]): against PyTorch 1.13's
// attention under torch.autocast("cpu", torch.bfloat16) (forward and gradients, the attention of
// char_gpt's blocks), against brasa's float kernel on the same bf16 values (dropout replayed,
// masks, ragged tiles), and independent of the thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/dispatch/autocast_mode.h"
#include "support/torch_oracle.h"

namespace brasa {
namespace {

using testing_oracle::formula;

struct ThreadCountGuard {
  int saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(saved); }
};

// Largest |a - b| / (1 + |b|) over the elements.
double worst_relative(const Tensor& a, const Tensor& b) {
  Tensor x = a.to(kDouble), y = b.to(kDouble);
  return ((x - y).abs() / (y.abs() + 1.0)).max().item<double>();
}

// The attention of char_gpt's blocks (qkv [B, T, 3, H, E] split by permute, causal) and a
// non-causal one of odd sizes over several tiles, under autocast, with float leaves.
const char* kPython = R"PY(
import torch.nn.functional as F
def run(name, qkv_shape, causal, split):
    x = (formula(qkv_shape, 1.5, 0.37, 0.2) + formula(qkv_shape, 0.8, 0.011, 1.0)).float().requires_grad_()
    with torch.autocast('cpu', dtype=torch.bfloat16):
        q, k, v = split(x)
        y = F._scaled_dot_product_attention(q, k, v, None, 0.0, False, causal)[0]
    print(name + '.dtype', 1 if y.dtype == torch.bfloat16 else 0)
    pr(name + '.y', y.double())
    (y.float() * formula(y.shape, 1.0, 0.13, 0.5).float()).sum().backward()
    pr(name + '.gx', x.grad.double())
run('gpt', (2, 130, 3, 2, 32), True, lambda x: x.permute(2, 0, 3, 1, 4))
run('odd', (3, 70, 19), False, lambda x: (x[:, :67, :7], x[:, :, 7:14], x[:, :, 14:]))
)PY";

TEST(AttentionBf16, AutocastMatchesPyTorch) {
  const auto& ref = testing_oracle::run_python_shared(kPython);
  struct Case {
    std::string name;
    std::vector<int64_t> shape;
    bool causal;
  };
  for (const Case& c : {Case{"gpt", {2, 130, 3, 2, 32}, true}, Case{"odd", {3, 70, 19}, false}}) {
    SCOPED_TRACE(c.name);
    Tensor x = (formula(c.shape, 1.5, 0.37, 0.2) + formula(c.shape, 0.8, 0.011, 1.0))
                   .to(kFloat)
                   .requires_grad_();
    Tensor y;
    {
      AutocastGuard guard(kBFloat16);
      Tensor q, k, v;
      if (c.causal) {
        Tensor parts = x.permute({2, 0, 3, 1, 4});
        q = parts[0], k = parts[1], v = parts[2];
      } else {
        q = x.slice(1, 0, 67).slice(2, 0, 7), k = x.slice(2, 7, 14), v = x.slice(2, 14, 19);
      }
      y = scaled_dot_product_attention(q, k, v, {}, 0.0, c.causal);
    }
    EXPECT_EQ(y.scalar_type(), kBFloat16);
    EXPECT_EQ(ref.at(c.name + ".dtype").at(0), 1.0);
    (y.to(kFloat) * formula(y.sizes(), 1.0, 0.13, 0.5).to(kFloat)).sum().backward();
    EXPECT_EQ(x.grad().scalar_type(), kFloat);
    testing_oracle::expect_close(c.name + ".y", y, ref, 2e-2);
    testing_oracle::expect_close(c.name + ".gx", x.grad(), ref, 3e-2);
  }
}

// bf16 inputs against the float kernel on the same (bf16-exact) values: forward and the three
// gradients within bf16 rounding, with dropout drawing the same elements from the same generator.
TEST(AttentionBf16, MatchesFloatKernelOnTheSameValues) {
  manual_seed(21);
  struct Problem {
    std::vector<int64_t> q, k, v;
    bool causal;
    double dropout;
    bool mask;
  };
  const Problem problems[] = {
      {{4, 2, 150, 32}, {4, 2, 150, 32}, {4, 2, 150, 32}, true, 0.2, false},
      {{3, 65, 9}, {3, 131, 9}, {3, 131, 5}, false, 0.0, true},
      {{2, 1, 33}, {2, 64, 33}, {2, 64, 31}, false, 0.1, false},
  };
  for (const Problem& p : problems) {
    Tensor q = randn(p.q).to(kBFloat16), k = randn(p.k).to(kBFloat16), v = randn(p.v).to(kBFloat16);
    std::vector<int64_t> out_shape = p.q;
    out_shape.back() = p.v.back();
    Tensor go = randn(out_shape).to(kBFloat16);
    Tensor mask = p.mask ? randn({p.q[p.q.size() - 2], p.k[p.k.size() - 2]}) : Tensor();
    auto run = [&](ScalarType dt) {
      auto leaf = [dt](const Tensor& t) { return t.to(dt).clone().requires_grad_(); };
      std::vector<Tensor> in = {leaf(q), leaf(k), leaf(v)};
      Tensor m = mask.defined() ? mask.to(dt) : Tensor();
      Tensor o = scaled_dot_product_attention(in[0], in[1], in[2], m, p.dropout, p.causal,
                                              std::nullopt, make_generator(5));
      o.backward(go.to(dt));
      return std::vector<Tensor>{o, in[0].grad(), in[1].grad(), in[2].grad()};
    };
    const auto bf = run(kBFloat16), fl = run(kFloat);
    const char* names[] = {"out", "grad_q", "grad_k", "grad_v"};
    for (size_t i = 0; i < 4; ++i) {
      SCOPED_TRACE(names[i]);
      EXPECT_EQ(bf[i].scalar_type(), kBFloat16);
      EXPECT_LT(worst_relative(bf[i], fl[i]), 3e-2);
    }
  }
}

TEST(AttentionBf16, FullyMaskedRowIsNaNAndThreadsDoNotMatter) {
  ThreadCountGuard guard;
  manual_seed(22);
  Tensor q = randn({3, 70, 16}).to(kBFloat16), k = randn({3, 90, 16}).to(kBFloat16),
         v = randn({3, 90, 8}).to(kBFloat16), go = randn({3, 70, 8}).to(kBFloat16);
  Tensor mask = ones({70, 90}).to(kBool);
  mask.select(0, 5).fill_(false);
  std::vector<Tensor> results[2];
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    auto [out, lse, philox] = _scaled_dot_product_attention_forward(
        q, k, v, mask, 0.3, false, std::nullopt, make_generator(3));
    auto [gq, gk, gv] =
        scaled_dot_product_attention_backward(go, q, k, v, mask, out, lse, philox, 0.3, false, {});
    results[threads - 1] = {out, gq, gk, gv};
  }
  Tensor out = results[0][0].to(kFloat);
  EXPECT_TRUE(std::isnan(out[0][5][0].item<float>()));
  EXPECT_FALSE(std::isnan(out[0][4][0].item<float>()));
  EXPECT_EQ(results[0][1][0][5].abs().sum().item<float>(), 0.f) << "a dead row passes no gradient";
  for (size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(equal(nan_to_num(results[0][i]), nan_to_num(results[1][i]))) << i;
}

}  // namespace
}  // namespace brasa
