// mm/bmm/matmul/addmm/... vs a naive double reference; layouts, broadcasting, empty dims, dtypes,
// errors (torch 1.13 semantics).
#include <gtest/gtest.h>

#include <cmath>

#include "brasa/ops/linalg.h"
#include "support/tensor_values.h"

using namespace brasa;
using namespace brasa::testing;

namespace {

// [B, M, K] x [B, K, N] in double.
std::vector<double> ref_bmm(const std::vector<double>& a, const std::vector<double>& b, int64_t B,
                            int64_t M, int64_t K, int64_t N) {
  std::vector<double> c(B * M * N, 0.0);
  for (int64_t p = 0; p < B; ++p)
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k) s += a[(p * M + i) * K + k] * b[(p * K + k) * N + j];
        c[(p * M + i) * N + j] = s;
      }
  return c;
}

// values() reads storage order; results may be permuted views (einsum "ij->ji").
std::vector<double> vals(const Tensor& t) { return values(t.contiguous()); }

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << "at " << i;
}

double tol_for(ScalarType dt) {
  switch (dt) {
    case kDouble: return 1e-12;
    case kFloat: return 1e-5;
    case ScalarType::BFloat16: return 3e-2;
    case ScalarType::Half: return 3e-3;
    default: return 0;
  }
}

std::vector<double> ints(int64_t n, uint32_t seed) {
  std::vector<double> v = random_values(n, seed);
  for (double& x : v) x = std::round(x * 4);
  return v;
}

}  // namespace

TEST(Linalg, MmMatchesReferenceAcrossDtypesAndSizes) {
  for (ScalarType dt :
       {kFloat, kDouble, ScalarType::BFloat16, ScalarType::Half, kInt, kLong, ScalarType::Char}) {
    for (auto [M, K, N] :
         {std::array<int64_t, 3>{1, 1, 1}, {5, 7, 3}, {33, 65, 17}, {128, 64, 96}}) {
      const bool integral = !is_floating_type(dt);
      std::vector<double> a = integral ? ints(M * K, 3) : random_values(M * K, 3);
      std::vector<double> b = integral ? ints(K * N, 4) : random_values(K * N, 4);
      // Inputs rounded to dt first, so the reference sees what brasa sees.
      Tensor ta = make(a, {M, K}, dt), tb = make(b, {K, N}, dt);
      Tensor c = mm(ta, tb);
      EXPECT_EQ(c.dtype(), dt);
      EXPECT_EQ(c.sizes(), IntArrayRef({M, N}));
      if (dt == ScalarType::Char) continue;  // int8 wraps; checked for shape only
      std::vector<double> want = ref_bmm(vals(ta), vals(tb), 1, M, K, N);
      expect_near(vals(c), want, tol_for(dt) * (dt == kFloat ? 1 : std::sqrt(double(K))));
    }
  }
}

TEST(Linalg, TransposedAndStridedInputs) {
  for (ScalarType dt : {kFloat, kDouble, ScalarType::BFloat16}) {
    std::vector<double> a = random_values(6 * 4, 1), b = random_values(4 * 5, 2);
    Tensor ta = make(a, {6, 4}, dt), tb = make(b, {4, 5}, dt);
    std::vector<double> want = ref_bmm(vals(ta), vals(tb), 1, 6, 4, 5);
    Tensor at = ta.t().contiguous().t(), bt = tb.t().contiguous().t();
    ASSERT_FALSE(at.is_contiguous());
    for (const Tensor& x : {ta, at})
      for (const Tensor& y : {tb, bt}) expect_near(vals(mm(x, y)), want, tol_for(dt) * 4);
    // Neither dim with stride 1: every other column of a wider matrix.
    Tensor wide = make(random_values(6 * 8, 5), {6, 8}, dt);
    Tensor sl = wide.slice(1, 0, 8, 2);
    expect_near(vals(mm(sl, tb)), ref_bmm(vals(sl), vals(tb), 1, 6, 4, 5), tol_for(dt) * 4);
    Tensor expanded = make(random_values(4, 6), {1, 4}, dt).expand({6, 4});
    expect_near(vals(mm(expanded, tb)), ref_bmm(vals(expanded), vals(tb), 1, 6, 4, 5),
                tol_for(dt) * 4);
  }
}

TEST(Linalg, BmmBaddbmmAddmm) {
  std::vector<double> a = random_values(3 * 4 * 5, 7), b = random_values(3 * 5 * 2, 8);
  Tensor ta = make(a, {3, 4, 5}), tb = make(b, {3, 5, 2});
  std::vector<double> want = ref_bmm(a, b, 3, 4, 5, 2);
  expect_near(vals(bmm(ta, tb)), want, 1e-5);
  expect_near(vals(bmm(ta, transposed(tb.transpose(1, 2).contiguous(), 1, 2))), want, 1e-5);
  Tensor self = make(random_values(2, 9), {2});
  std::vector<double> s = vals(self), want2 = want;
  for (size_t i = 0; i < want2.size(); ++i) want2[i] = 0.5 * s[i % 2] + 3 * want[i];
  expect_near(vals(baddbmm(self, ta, tb, 0.5, 3)), want2, 1e-5);
  // beta = 0 ignores NaN in self.
  Tensor nan_self = full({3, 4, 2}, NAN);
  expect_near(vals(baddbmm(nan_self, ta, tb, 0, 1)), want, 1e-5);
  Tensor m1 = ta.select(0, 1), m2 = tb.select(0, 1);
  std::vector<double> w1(want.begin() + 8, want.begin() + 16);
  for (size_t i = 0; i < w1.size(); ++i) w1[i] = 2 * s[i % 2] + w1[i];
  expect_near(vals(addmm(self, m1, m2, 2)), w1, 1e-5);
  expect_near(vals(m1.mm(m2).addmm(m1, m2, 2, 0)), vals(m1.mm(m2) * 2), 1e-6);
}

TEST(Linalg, MatmulRankRulesAndBroadcasting) {
  Tensor v = make(random_values(5, 1), {5});
  Tensor m = make(random_values(4 * 5, 2), {4, 5});
  Tensor b = make(random_values(2 * 1 * 3 * 4, 3), {2, 1, 3, 4});
  EXPECT_EQ(matmul(v, v).dim(), 0);
  EXPECT_NEAR(scalar(matmul(v, v)), scalar((v * v).sum()), 1e-5);
  EXPECT_EQ(matmul(m, v).sizes(), IntArrayRef({4}));
  EXPECT_EQ(matmul(make(random_values(4, 4), {4}), m).sizes(), IntArrayRef({5}));
  Tensor r = matmul(b, m);  // [2,1,3,4] x [4,5] -> [2,1,3,5]
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 1, 3, 5}));
  expect_near(vals(r), ref_bmm(vals(b), vals(m), 1, 6, 4, 5), 1e-5);
  Tensor c = make(random_values(6 * 4 * 5, 4), {6, 4, 5});
  Tensor rb = matmul(b, c);  // batch [2,1] x [6] -> [2,6]
  EXPECT_EQ(rb.sizes(), IntArrayRef({2, 6, 3, 5}));
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 6; ++j)
      expect_near(vals(rb.select(0, i).select(0, j)),
                  vals(mm(b.select(0, i).select(0, 0), c.select(0, j))), 1e-5);
  EXPECT_EQ(matmul(make(random_values(4, 4), {4}), c).sizes(), IntArrayRef({6, 5}));
  EXPECT_EQ(matmul(c, v).sizes(), IntArrayRef({6, 4}));
  EXPECT_EQ(c.matmul(v).sizes(), IntArrayRef({6, 4}));
}

TEST(Linalg, VectorOps) {
  Tensor m = make(random_values(4 * 5, 2), {4, 5}, kDouble);
  Tensor v = make(random_values(5, 1), {5}, kDouble);
  expect_near(vals(mv(m, v)), ref_bmm(vals(m), vals(v), 1, 4, 5, 1), 1e-12);
  expect_near(vals(mv(m.t().contiguous().t(), v)), vals(mv(m, v)), 1e-12);
  Tensor s = make({1, 2, 3, 4}, {4}, kDouble);
  std::vector<double> want = vals(mv(m, v));
  for (size_t i = 0; i < 4; ++i) want[i] = 2 * (i + 1) + 3 * want[i];
  expect_near(vals(addmv(s, m, v, 2, 3)), want, 1e-12);
  EXPECT_NEAR(scalar(dot(v, v)), scalar((v * v).sum()), 1e-12);
  Tensor o = outer(make({1, 2}, {2}, kInt), make({3, 4, 5}, {3}, kInt));
  EXPECT_EQ(o.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(vals(o), (std::vector<double>{3, 4, 5, 6, 8, 10}));
}

TEST(Linalg, EmptyDims) {
  EXPECT_EQ(mm(zeros({0, 3}), zeros({3, 4})).sizes(), IntArrayRef({0, 4}));
  Tensor z = mm(ones({2, 0}), ones({0, 3}));
  EXPECT_EQ(z.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(vals(z), std::vector<double>(6, 0.0));
  EXPECT_EQ(vals(addmm(full({2, 3}, 2.0), ones({2, 0}), ones({0, 3}), 3)),
            std::vector<double>(6, 6.0));
  EXPECT_EQ(bmm(zeros({0, 2, 3}), zeros({0, 3, 4})).sizes(), IntArrayRef({0, 2, 4}));
  EXPECT_EQ(scalar(dot(zeros({0}), zeros({0}))), 0.0);
  EXPECT_EQ(matmul(zeros({2, 0, 3}), zeros({3, 4})).sizes(), IntArrayRef({2, 0, 4}));
}

TEST(Linalg, Linear) {
  Tensor x = make(random_values(2 * 3 * 5, 1), {2, 3, 5});
  Tensor w = make(random_values(4 * 5, 2), {4, 5});
  Tensor b = make(random_values(4, 3), {4});
  Tensor r = linear(x, w, b);
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 3, 4}));
  expect_near(vals(r), vals(matmul(x, w.t()) + b), 1e-6);
  expect_near(vals(linear(x.select(0, 0), w, b)), vals(r.select(0, 0)), 1e-6);
  expect_near(vals(linear(x, w)), vals(matmul(x, w.t())), 1e-6);
}

TEST(Linalg, Einsum) {
  Tensor a = make(random_values(3 * 4, 1), {3, 4}, kDouble);
  Tensor b = make(random_values(4 * 5, 2), {4, 5}, kDouble);
  expect_near(vals(einsum("ij,jk->ik", {a, b})), vals(mm(a, b)), 1e-12);
  expect_near(vals(einsum("ij,jk", {a, b})), vals(mm(a, b)), 1e-12);
  expect_near(vals(einsum("ij->ji", {a})), vals(a.t().contiguous()), 0);
  EXPECT_NEAR(scalar(einsum("ij->", {a})), scalar(a.sum()), 1e-12);
  Tensor v = a.select(0, 0);
  EXPECT_NEAR(scalar(einsum("i,i->", {v, v})), scalar(dot(v, v)), 1e-12);
  Tensor q = make(random_values(2 * 3 * 4 * 5, 3), {2, 3, 4, 5}, kDouble);
  Tensor k = make(random_values(2 * 3 * 6 * 5, 4), {2, 3, 6, 5}, kDouble);
  expect_near(vals(einsum("bhid,bhjd->bhij", {q, k})), vals(matmul(q, k.transpose(-1, -2))), 1e-12);
  Tensor c = make(random_values(5 * 2, 5), {5, 2}, kDouble);
  expect_near(vals(einsum("ij,jk,kl->il", {a, b, c})), vals(mm(mm(a, b), c)), 1e-12);
  EXPECT_THROW(einsum("ij,jk->ik", {a, a}), ValueError);
  EXPECT_THROW(einsum("ij,jk->ik", {a}), ValueError);
  EXPECT_THROW(einsum("ij->iz", {a}), ValueError);
  EXPECT_THROW(einsum("i1->i", {a}), ValueError);
  EXPECT_THROW(einsum("ii->i", {a}), NotImplementedError);
  EXPECT_THROW(einsum("...j->j", {a}), NotImplementedError);
}

TEST(Linalg, Errors) {
  try {
    mm(ones({2, 3}), ones({4, 5}));
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
              std::string::npos);
  }
  try {
    mm(ones({2, 3}), ones({3, 5}, kDouble));
    FAIL();
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("expected scalar type Float but found Double"),
              std::string::npos);
  }
  EXPECT_THROW(mm(ones({3}), ones({3, 5})), ValueError);
  EXPECT_THROW(mm(ones({2, 3}, kBool), ones({3, 5}, kBool)), TypeError);
  EXPECT_THROW(bmm(ones({2, 2, 3}), ones({3, 3, 5})), ValueError);
  EXPECT_THROW(bmm(ones({2, 3}), ones({3, 5})), ValueError);
  EXPECT_THROW(dot(ones({3}), ones({4})), ValueError);
  EXPECT_THROW(mv(ones({2, 3}), ones({4})), ValueError);
  EXPECT_THROW(matmul(ones({}), ones({4})), ValueError);
  EXPECT_THROW(matmul(ones({2, 2, 3}), ones({3, 3, 5})), ValueError);
  EXPECT_THROW(addmm(ones({3, 3}), ones({2, 3}), ones({3, 5})), ValueError);
  EXPECT_THROW(outer(ones({2, 2}), ones({2})), ValueError);
}

TEST(Linalg, MetaShapes) {
  Tensor a = empty({7, 3}, TensorOptions(kFloat).device(Device(kMeta)));
  Tensor b = empty({3, 2}, TensorOptions(kFloat).device(Device(kMeta)));
  Tensor c = mm(a, b);
  EXPECT_TRUE(c.is_meta());
  EXPECT_EQ(c.sizes(), IntArrayRef({7, 2}));
}
