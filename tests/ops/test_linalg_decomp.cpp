// The LAPACK-backed matrix functions beyond what conformance (cases_decomp.py) compares with
// PyTorch: typed errors naming the op and batch element, results independent of the thread
// count (Note [LAPACK]), second derivatives, shape rules on the meta device.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "brasa/autograd/gradcheck.h"
#include "brasa/brasa.h"

using namespace brasa;

namespace {

Tensor well_conditioned(IntArrayRef shape, ScalarType dtype = kDouble) {
  Tensor a = randn(shape, TensorOptions(kDouble));
  const int64_t m = shape[shape.size() - 2], n = shape[shape.size() - 1];
  a = a + 2.0 * static_cast<double>(std::max(m, n)) * eye(m, n, TensorOptions(kDouble));
  return a.to(dtype);
}

Tensor spd(int64_t batch, int64_t n) {
  Tensor x = randn({batch, n, n}, TensorOptions(kDouble));
  return matmul(x, x.transpose(-2, -1)) + static_cast<double>(n) * eye(n, TensorOptions(kDouble));
}

template <class E, class F>
std::string message_of(const F& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error of the expected type";
  return {};
}

TEST(LinalgDecomp, SingularInverseNamesTheBatchElement) {
  Tensor a = well_conditioned({3, 3, 3});
  a.select(0, 1).fill_(1.0);  // element 1: all ones, rank 1
  const std::string msg = message_of<RuntimeError>([&] { linalg_inv(a); });
  EXPECT_NE(msg.find("linalg.inv"), std::string::npos) << msg;
  EXPECT_NE(msg.find("batch element 1 of A [3, 3, 3]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("singular"), std::string::npos) << msg;
  const std::string solve_msg = message_of<RuntimeError>([&] {
    linalg_solve(a, randn({3, 3, 1}, TensorOptions(kDouble)));
  });
  EXPECT_NE(solve_msg.find("linalg.solve"), std::string::npos) << solve_msg;
  EXPECT_NE(solve_msg.find("batch element 1"), std::string::npos) << solve_msg;
}

TEST(LinalgDecomp, CholeskyOfIndefiniteMatrixNamesTheMinor) {
  Tensor a = spd(2, 3);
  a.select(0, 1).select(0, 1).select(0, 1).fill_(-100.0);
  const std::string msg = message_of<RuntimeError>([&] { linalg_cholesky(a); });
  EXPECT_NE(msg.find("linalg.cholesky: batch element 1 of A [2, 3, 3]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("positive-definite"), std::string::npos) << msg;
  EXPECT_NE(msg.find("order 2"), std::string::npos) << msg;
}

TEST(LinalgDecomp, NonFiniteSvdInputIsTheCallersError) {
  Tensor a = well_conditioned({2, 3, 3});
  a.select(0, 1).select(0, 0).select(0, 2).fill_(std::numeric_limits<double>::quiet_NaN());
  const std::string msg = message_of<RuntimeError>([&] { linalg_svdvals(a); });
  EXPECT_NE(msg.find("linalg.svd: batch element 1 of A [2, 3, 3] has non-finite entries"),
            std::string::npos)
      << msg;
}

TEST(LinalgDecomp, ArgumentErrorsAreTyped) {
  EXPECT_THROW(linalg_inv(ones({3, 3}, TensorOptions(kLong))), TypeError);
  EXPECT_THROW(linalg_inv(ones({2, 3}, TensorOptions(kDouble))), ValueError);
  EXPECT_THROW(linalg_det(ones({3}, TensorOptions(kDouble))), ValueError);
  EXPECT_THROW(linalg_qr(ones({3, 3}), "full"), ValueError);
  EXPECT_THROW(linalg_eigh(ones({3, 3}), "X"), ValueError);
  EXPECT_THROW(linalg_lstsq(ones({4, 3}), ones({4, 2}), std::nullopt, "qr"), ValueError);
  EXPECT_THROW(linalg_solve(ones({3, 3}), ones({3, 2}, TensorOptions(kDouble))), TypeError);
}

// Note [LAPACK]: each batch element runs on one thread, so the thread count changes nothing.
TEST(LinalgDecomp, ResultsDoNotDependOnThreadCount) {
  manual_seed(3);
  const Tensor a = well_conditioned({64, 12, 12}, kFloat);
  const int threads = get_num_threads();
  set_num_threads(1);
  const Tensor inv1 = linalg_inv(a);
  const Tensor s1 = linalg_svdvals(a);
  set_num_threads(4);
  const Tensor inv4 = linalg_inv(a);
  const Tensor s4 = linalg_svdvals(a);
  set_num_threads(threads);
  EXPECT_TRUE(inv1.equal(inv4));
  EXPECT_TRUE(s1.equal(s4));
}

// Note [LAPACK]: when the LAPACK is OpenBLAS's, its own threads are off after the first call.
TEST(LinalgDecomp, OpenBlasRunsOnTheCallingThread) {
  linalg_det(eye(2, TensorOptions(kDouble)));
  using GetThreads = int (*)();
  void* lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_NOLOAD);  // loaded by the call above
  ASSERT_NE(lib, nullptr);
  auto get = reinterpret_cast<GetThreads>(dlsym(lib, "openblas_get_num_threads"));
  // Debian's alternatives pick OpenBLAS's LAPACK whenever libopenblas0 is installed (python3-torch,
  // the test oracle, depends on it); with the reference LAPACK there are no threads to check.
  if (get != nullptr) {
    EXPECT_EQ(get(), 1);
  }
  dlclose(lib);
}

using autograd::variable_list;

TEST(LinalgDecomp, SecondDerivativesOfInvDet) {
  manual_seed(5);
  const Tensor a = well_conditioned({2, 3, 3}).requires_grad_();
  EXPECT_TRUE(autograd::gradgradcheck(
      [](const variable_list& x) -> variable_list {
        return {linalg_inv(x[0]), linalg_det(x[0])};
      },
      {a}));
}

TEST(LinalgDecomp, SecondDerivativesOfSolve) {
  manual_seed(6);
  const Tensor a = well_conditioned({2, 3, 3}).requires_grad_();
  const Tensor b = randn({2, 3, 2}, TensorOptions(kDouble)).requires_grad_();
  EXPECT_TRUE(autograd::gradgradcheck(
      [](const variable_list& x) -> variable_list { return {linalg_solve(x[0], x[1])}; }, {a, b}));
}

TEST(LinalgDecomp, SecondDerivativesOfCholesky) {
  manual_seed(7);
  // Only A's lower triangle is read: differentiate through a symmetric parametrisation.
  const Tensor s = spd(2, 3).requires_grad_();
  EXPECT_TRUE(autograd::gradgradcheck(
      [](const variable_list& x) -> variable_list {
        return {linalg_cholesky(0.5 * (x[0] + x[0].transpose(-2, -1)))};
      },
      {s}));
}

TEST(LinalgDecomp, DerivativesOfDecompositions) {
  manual_seed(8);
  EXPECT_TRUE(autograd::gradcheck(
      [](const variable_list& x) -> variable_list {
        auto [q, r] = linalg_qr(x[0]);
        return {matmul(q, r), abs(r)};
      },
      {well_conditioned({4, 3}).requires_grad_()}));
  EXPECT_TRUE(autograd::gradcheck(
      [](const variable_list& x) -> variable_list {
        return {linalg_eigvalsh(x[0] + x[0].transpose(-2, -1)), linalg_svdvals(x[0])};
      },
      {well_conditioned({2, 3, 3}).requires_grad_()}));
  EXPECT_TRUE(autograd::gradcheck(
      [](const variable_list& x) -> variable_list {
        return {std::get<0>(linalg_lstsq(x[0], x[1])), linalg_pinv(x[0])};
      },
      {well_conditioned({5, 3}).requires_grad_(),
       randn({5, 2}, TensorOptions(kDouble)).requires_grad_()}));
}

TEST(LinalgDecomp, SecondDerivativesOfDecompositions) {
  manual_seed(9);
  EXPECT_TRUE(autograd::gradgradcheck(
      [](const variable_list& x) -> variable_list {
        auto [q, r] = linalg_qr(x[0]);
        return {matmul(q, r), abs(r)};
      },
      {well_conditioned({4, 3}).requires_grad_()}));
  EXPECT_TRUE(autograd::gradgradcheck(
      [](const variable_list& x) -> variable_list {
        auto [w, v] = linalg_eigh(x[0] + x[0].transpose(-2, -1));
        return {w, abs(v)};
      },
      {well_conditioned({3, 3}).requires_grad_()}));
  EXPECT_TRUE(autograd::gradgradcheck(
      [](const variable_list& x) -> variable_list {
        auto [u, s, vh] = linalg_svd(x[0], false);
        return {s, abs(u), abs(vh)};
      },
      {well_conditioned({4, 3}).requires_grad_()}));
  EXPECT_TRUE(autograd::gradgradcheck(
      [](const variable_list& x) -> variable_list { return {linalg_pinv(x[0])}; },
      {well_conditioned({3, 4}).requires_grad_()}));
}

TEST(LinalgDecomp, MetaShapes) {
  const TensorOptions meta = TensorOptions(kFloat).device(Device(kMeta));
  auto [u, s, vh] = linalg_svd(empty({2, 5, 3}, meta), false);
  EXPECT_EQ(u.sizes(), IntArrayRef({2, 5, 3}));
  EXPECT_EQ(s.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(vh.sizes(), IntArrayRef({2, 3, 3}));
  auto [q, r] = linalg_qr(empty({3, 5}, meta), "complete");
  EXPECT_EQ(q.sizes(), IntArrayRef({3, 3}));
  EXPECT_EQ(r.sizes(), IntArrayRef({3, 5}));
  EXPECT_EQ(linalg_solve(empty({2, 4, 4}, meta), empty({2, 4}, meta)).sizes(), IntArrayRef({2, 4}));
  EXPECT_EQ(linalg_det(empty({6, 2, 2}, meta)).sizes(), IntArrayRef({6}));
  EXPECT_TRUE(linalg_inv(empty({3, 3}, meta)).device().is_meta());
}

}  // namespace
