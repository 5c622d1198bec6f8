// scaled_dot_product_attention beyond the conformance family `attn`: the blockwise kernel against
// the composite formula on many tiles, memory, dropout (statistics, reproducibility, thread count,
// gradients by finite differences) and the backward op's shapes and errors.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "brasa/brasa.h"
#include "ops/attention/attention_ops.h"

using namespace brasa;

namespace {

Tensor reference(const Tensor& q, const Tensor& k, const Tensor& v, bool causal, double scale) {
  Tensor s = matmul(q, k.transpose(-2, -1)) * scale;
  if (causal) {
    const int64_t L = q.size(-2), S = k.size(-2);
    Tensor keep = ones({L, S}).tril().to(kBool);
    s = where(keep, s, scalar_tensor(-std::numeric_limits<double>::infinity(), s.scalar_type()));
  }
  return matmul(softmax(s, -1), v);
}

void expect_close(const Tensor& a, const Tensor& b, double tol) {
  ASSERT_EQ(a.sizes(), b.sizes());
  EXPECT_TRUE(allclose(a.to(kDouble), b.to(kDouble), tol, tol))
      << "max diff " << (a.to(kDouble) - b.to(kDouble)).abs().max().item<double>();
}

struct ThreadCountGuard {
  int saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(saved); }
};

// q, k, v as the GPT takes them: slices of one [B, T, 3, H, D] projection; q of batch 1 (it
// broadcasts) when broadcast_q.
std::array<Tensor, 3> attention_projection_slices(int64_t B, int64_t T, int64_t H, int64_t D,
                                                  ScalarType dt, bool broadcast_q) {
  const Tensor h = randn({B, T, 3 * H * D}, dt);
  const Tensor parts = h.view({B, T, 3, H, D}).permute({2, 0, 3, 1, 4});
  return {broadcast_q ? parts[0].narrow(0, 0, 1) : parts[0], parts[1], parts[2]};
}

}  // namespace

TEST(Attention, ManyTilesMatchFormula) {
  manual_seed(1);
  for (bool causal : {false, true}) {
    Tensor q = randn({2, 3, 200, 40}), k = randn({2, 3, 150, 40}), v = randn({2, 3, 150, 24});
    expect_close(scaled_dot_product_attention(q, k, v, {}, 0.0, causal),
                 reference(q, k, v, causal, 1.0 / std::sqrt(40.0)), 2e-5);
    Tensor qd = q.to(kDouble), kd = k.to(kDouble), vd = v.to(kDouble);
    expect_close(scaled_dot_product_attention(qd, kd, vd, {}, 0.0, causal, 0.7),
                 reference(qd, kd, vd, causal, 0.7), 1e-12);
  }
}

TEST(Attention, HalfAndMetaAndTorchSpelling) {
  manual_seed(2);
  Tensor q = randn({2, 9, 8}), k = randn({2, 11, 8}), v = randn({2, 11, 5});
  Tensor h = torch::scaled_dot_product_attention(q.to(kHalf), k.to(kHalf), v.to(kHalf));
  EXPECT_EQ(h.scalar_type(), kHalf);
  expect_close(h, reference(q, k, v, false, 1.0 / std::sqrt(8.0)), 5e-3);
  Tensor m = nn::functional::scaled_dot_product_attention(
      empty({2, 9, 8}, kMeta), empty({2, 11, 8}, kMeta), empty({2, 11, 5}, kMeta));
  EXPECT_EQ(m.sizes(), IntArrayRef({2, 9, 5}));
  EXPECT_TRUE(m.is_meta());
}

TEST(Attention, CausalFullyMaskedRowIsNaNLikeSoftmax) {
  Tensor q = randn({3, 4}), k = randn({5, 4}), v = randn({5, 2});
  Tensor mask = ones({3, 5}).to(kBool);
  mask.select(0, 1).fill_(false);
  Tensor o = scaled_dot_product_attention(q, k, v, mask);
  EXPECT_TRUE(std::isnan(o[1][0].item<float>()));
  EXPECT_FALSE(std::isnan(o[0][0].item<float>()));
}

TEST(Attention, NoScoreMatrixAllocated) {
  Tensor q = randn({1, 2, 2048, 64}), k = randn({1, 2, 2048, 64}), v = randn({1, 2, 2048, 64});
  const int64_t before = memory_stats().allocated_bytes;
  reset_peak_memory_stats();
  Tensor o = scaled_dot_product_attention(q, k, v, {}, 0.0, true);
  const int64_t extra = memory_stats().peak_allocated_bytes - before - int64_t(o.nbytes());
  EXPECT_LT(extra, int64_t(2 * 2048 * 2048 * 4) / 16);  // far below one L x S score matrix
}

TEST(Attention, DropoutStatisticsAndReproducibility) {
  ThreadCountGuard guard;
  Tensor q = randn({4, 256, 16}), k = randn({4, 256, 16}), v = ones({4, 256, 1});
  // With v = 1 each output is sum_j p_j keep_j / (1 - p): mean 1 over rows.
  Generator g = make_generator(5);
  Tensor o = scaled_dot_product_attention(q, k, v, {}, 0.4, false, std::nullopt, g);
  EXPECT_NEAR(o.mean().item<float>(), 1.0, 0.03);
  set_num_threads(1);
  Tensor a = scaled_dot_product_attention(q, k, v, {}, 0.4, false, std::nullopt, make_generator(9));
  set_num_threads(2);
  Tensor b = scaled_dot_product_attention(q, k, v, {}, 0.4, false, std::nullopt, make_generator(9));
  EXPECT_TRUE(equal(a, b));
  Tensor zero = scaled_dot_product_attention(q, k, v, {}, 1.0);
  EXPECT_EQ(zero.abs().sum().item<float>(), 0.0f);
}

TEST(Attention, OnePassBackwardIsTheTwoPassOneBitForBit) {
  // The backward runs in one pass per batch element when there are at least as many batch
  // elements as threads, in two passes otherwise (Note [Blockwise attention]); both add the same
  // products in the same order. Batch 1 on 2 threads takes the two-pass path, on 1 thread the
  // one-pass path. Multi-tile, ragged sizes, causal with dropout, and a mask with L != S.
  ThreadCountGuard guard;
  manual_seed(4);
  struct Problem {
    Tensor q, k, v, mask;
    double dropout;
    bool causal;
  };
  const Problem problems[] = {
      {randn({1, 150, 24}), randn({1, 150, 24}), randn({1, 150, 20}), {}, 0.2, true},
      {randn({1, 70, 16}), randn({1, 130, 16}), randn({1, 130, 8}), randn({70, 130}), 0.0, false},
      {randn({1, 65, 8}, kDouble),
       randn({1, 65, 8}, kDouble),
       randn({1, 65, 8}, kDouble),
       {},
       0.1,
       true}};
  for (const Problem& p : problems) {
    Tensor go = randn({1, p.q.size(1), p.v.size(2)}, p.q.scalar_type());
    auto [out, lse, philox] = _scaled_dot_product_attention_forward(
        p.q, p.k, p.v, p.mask, p.dropout, p.causal, std::nullopt, make_generator(8));
    std::vector<Tensor> grads[2];
    for (int threads : {2, 1}) {
      set_num_threads(threads);
      auto [gq, gk, gv] = scaled_dot_product_attention_backward(go, p.q, p.k, p.v, p.mask, out, lse,
                                                                philox, p.dropout, p.causal, {});
      grads[threads - 1] = {gq, gk, gv};
    }
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(equal(grads[0][size_t(i)], grads[1][size_t(i)])) << i;
  }
}

TEST(Attention, GradientsIntoSlicesEqualTheOpBitForBit) {
  // Note [Attention gradients into slices]: q, k, v are slices of one [B, T, 3, H, D] projection
  // (as the GPT's are) and the gradients go into the slices of one such buffer, written by the
  // kernel in place (rows of stride 3 H D) or, where it cannot, by the op and copies. Every case
  // equals the op's results bit for bit: D = 32 (rows need no padding: written in place), D = 5
  // and 24 (padded: through the accumulator buffer), causal or not, dropout, one batch element on
  // 2 threads (two passes) and many on 1 (one pass), a broadcast query, Half (the fallbacks).
  ThreadCountGuard guard;
  manual_seed(5);
  struct Case {
    int64_t B, T, H, D;
    bool causal;
    double dropout;
    int threads;
    ScalarType dt;
    bool broadcast_q;
  };
  const Case cases[] = {
      {2, 64, 4, 32, true, 0.0, 1, kFloat, false},   {2, 70, 3, 32, false, 0.0, 1, kFloat, false},
      {1, 130, 2, 32, true, 0.1, 2, kFloat, false},  {3, 37, 2, 5, true, 0.0, 1, kFloat, false},
      {1, 66, 2, 24, false, 0.0, 2, kDouble, false}, {2, 20, 2, 16, true, 0.0, 1, kDouble, false},
      {2, 33, 2, 8, false, 0.0, 1, kFloat, true},    {2, 17, 2, 8, true, 0.0, 1, kHalf, false}};
  for (const Case& c : cases) {
    set_num_threads(c.threads);
    const auto [q, k, v] = attention_projection_slices(c.B, c.T, c.H, c.D, c.dt, c.broadcast_q);
    auto [out, lse, philox] = _scaled_dot_product_attention_forward(
        q, k, v, {}, c.dropout, c.causal, std::nullopt, make_generator(3));
    const Tensor go = randn(out.sizes(), c.dt).transpose(1, 2).contiguous().transpose(1, 2);
    auto [gq, gk, gv] = scaled_dot_product_attention_backward(go, q, k, v, {}, out, lse, philox,
                                                              c.dropout, c.causal, {});
    const Tensor buf = full({c.B, c.T, 3, c.H, c.D}, 7.0, c.dt);
    const Tensor slices = buf.permute({2, 0, 3, 1, 4});
    const Tensor dq = c.broadcast_q ? slices[0].narrow(0, 0, 1) : slices[0];
    ops::scaled_dot_product_attention_backward_into(go, q, k, v, {}, out, lse, philox, c.dropout,
                                                    c.causal, {}, dq, slices[1], slices[2]);
    EXPECT_TRUE(equal(dq, gq)) << c.T << " " << c.D;
    EXPECT_TRUE(equal(slices[1], gk)) << c.T << " " << c.D;
    EXPECT_TRUE(equal(slices[2], gv)) << c.T << " " << c.D;
    if (c.broadcast_q) {  // the rest of the buffer is untouched
      const Tensor rest = slices[0].narrow(0, 1, c.B - 1);
      EXPECT_TRUE(equal(rest, full_like(rest, 7.0)));
    }
  }
}

TEST(Attention, OutputInMergedHeadsEqualsTheOpBitForBit) {
  // Note [Attention output in merged heads]: the output written as the [B, H, L, Ev] view of a
  // [B, L, H, Ev] buffer equals the op's bit for bit, and the backward reading it there gives the
  // op's gradients bit for bit. Head sizes 32 and 5 (float), 24 (double), causal or not, a mask,
  // dropout (the same generator state), 2 threads; Half and a broadcast query fall back to the
  // op's contiguous output.
  ThreadCountGuard guard;
  manual_seed(6);
  struct Case {
    int64_t B, T, H, D;
    bool causal, mask;
    double dropout;
    int threads;
    ScalarType dt;
    bool broadcast_q;
  };
  const Case cases[] = {{2, 64, 4, 32, true, false, 0.0, 1, kFloat, false},
                        {3, 37, 2, 5, false, true, 0.0, 2, kFloat, false},
                        {1, 70, 3, 24, false, false, 0.2, 1, kDouble, false},
                        {2, 17, 2, 8, true, false, 0.0, 1, kHalf, false},
                        {2, 33, 2, 8, false, false, 0.0, 1, kFloat, true}};
  for (const Case& c : cases) {
    set_num_threads(c.threads);
    const auto [q, k, v] = attention_projection_slices(c.B, c.T, c.H, c.D, c.dt, c.broadcast_q);
    const Tensor mask = c.mask ? randn({c.T, c.T}, c.dt) : Tensor();
    auto [out, lse, philox] = _scaled_dot_product_attention_forward(
        q, k, v, mask, c.dropout, c.causal, std::nullopt, make_generator(3));
    auto [mo, ml, mp] = ops::scaled_dot_product_attention_forward_merged(
        q, k, v, mask, c.dropout, c.causal, std::nullopt, make_generator(3));
    const bool merged = c.dt != kHalf && !c.broadcast_q;
    EXPECT_EQ(mo.transpose(1, 2).is_contiguous(), merged) << c.T << " " << c.D;
    EXPECT_TRUE(equal(mo, out)) << c.T << " " << c.D;
    EXPECT_TRUE(equal(ml, lse) && equal(mp, philox)) << c.T << " " << c.D;
    const Tensor go = randn(out.sizes(), c.dt);
    auto [gq, gk, gv] = scaled_dot_product_attention_backward(go, q, k, v, mask, out, lse, philox,
                                                              c.dropout, c.causal, {});
    auto [mq, mk, mv] = scaled_dot_product_attention_backward(go, q, k, v, mask, mo, ml, mp,
                                                              c.dropout, c.causal, {});
    EXPECT_TRUE(equal(mq, gq) && equal(mk, gk) && equal(mv, gv)) << c.T << " " << c.D;
  }
}

TEST(Attention, DropoutGradientsByFiniteDifferences) {
  manual_seed(3);
  Tensor q = randn({2, 70, 6}, kDouble), k = randn({2, 67, 6}, kDouble),
         v = randn({2, 67, 3}, kDouble), go = randn({2, 70, 3}, kDouble);
  Generator g = make_generator(11);
  auto loss = [&](const Tensor& qq, const Tensor& kk, const Tensor& vv) {
    Tensor o = scaled_dot_product_attention(qq, kk, vv, {}, 0.3, true, std::nullopt, g.clone());
    return (o * go).sum().item<double>();
  };
  auto [out, lse, philox] =
      _scaled_dot_product_attention_forward(q, k, v, {}, 0.3, true, std::nullopt, g.clone());
  auto [gq, gk, gv] =
      scaled_dot_product_attention_backward(go, q, k, v, {}, out, lse, philox, 0.3, true, {});
  const double eps = 1e-6;
  for (auto [t, grad] : {std::pair{q, gq}, std::pair{k, gk}, std::pair{v, gv}}) {
    for (int64_t i : {0L, 7L, 100L, t.numel() - 1}) {
      Tensor flat = t.view({-1});
      const double x = flat[i].item<double>();
      flat[i].fill_(x + eps);
      const double up = loss(q, k, v);
      flat[i].fill_(x - eps);
      const double down = loss(q, k, v);
      flat[i].fill_(x);
      EXPECT_NEAR(grad.reshape({-1})[i].item<double>(), (up - down) / (2 * eps), 1e-6);
    }
  }
}

TEST(Attention, Errors) {
  Tensor q = randn({2, 4, 8}), k = randn({2, 6, 8}), v = randn({2, 6, 5});
  EXPECT_THROW(scaled_dot_product_attention(q[0][0], k, v), ValueError);
  EXPECT_THROW(scaled_dot_product_attention(q, randn({2, 6, 7}), v), ValueError);
  EXPECT_THROW(scaled_dot_product_attention(q, k, v, ones({3, 6}).to(kBool)), ValueError);
  EXPECT_THROW(scaled_dot_product_attention(q, k, v, ones({4, 6}).to(kBool), 0.0, true),
               ValueError);
  EXPECT_THROW(scaled_dot_product_attention(q, k, v, ones({4, 6}).to(kInt)), TypeError);
  EXPECT_THROW(scaled_dot_product_attention(q, k, v, {}, 1.5), ValueError);
  EXPECT_THROW(scaled_dot_product_attention(q.to(kInt), k.to(kInt), v.to(kInt)), TypeError);
}

TEST(Attention, DropoutKeepsByPhiloxOfTheElementIndex) {
  // Uniform probabilities (q = k = 0) times an identity v give out[n][i][j] = keep(n, i, j) /
  // (1 - p) / S: the mask itself. Element (n, i, j) keeps when word (n L + i) S + j of the philox
  // range is below (1 - p) 2^32 (Note [Blockwise attention]); Float, Double and BFloat16 kernels.
  const int64_t N = 2, L = 5, S = 70;
  const double p = 0.3;
  for (ScalarType dt : {kFloat, kDouble, kBFloat16}) {
    SCOPED_TRACE(to_string(dt));
    Tensor q = zeros({N, L, 4}, dt), k = zeros({N, S, 4}, dt);
    Tensor v = eye(S, dt).expand({N, S, S});
    auto [out, lse, philox] = _scaled_dot_product_attention_forward(
        q, k, v, {}, p, false, std::nullopt, make_generator(7));
    const uint64_t seed = uint64_t(philox[0].item<int64_t>()),
                   offset = uint64_t(philox[1].item<int64_t>());
    Tensor o = out.to(kDouble).contiguous();
    int64_t mismatches = 0, kept = 0;
    for (int64_t e = 0; e < N * L * S; ++e) {
      const Philox4x32 block(seed, offset + uint64_t(e) / 4);
      const bool keep = double(block.out[e % 4]) * (1.0 / 4294967296.0) < 1 - p;
      const double value = o.data_ptr<double>()[e];
      kept += keep;
      mismatches += keep ? std::abs(value * S * (1 - p) - 1) > 1e-2 : value != 0;
    }
    EXPECT_EQ(mismatches, 0);
    EXPECT_GT(kept, N * L * S / 2);
  }
}
