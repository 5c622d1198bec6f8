// Unary pointwise ops: dtype rules (checked against PyTorch 1.13), values against std:: on random
// inputs of every length 1..100 (so SIMD tails are exercised), special values, in-place/out= forms,
// non-contiguous, 0-d, empty and meta tensors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/core/empty.h"

using namespace brasa;

namespace {

Tensor from_vector(const std::vector<double>& v, ScalarType dt = kDouble) {
  Tensor t = empty({int64_t(v.size())}, TensorOptions(kDouble));
  std::copy(v.begin(), v.end(), t.data_ptr<double>());
  return dt == kDouble ? t : t.to(dt);
}
std::vector<double> to_vector(const Tensor& t) {
  Tensor c = t.to(kDouble).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}
std::vector<double> random_values(int64_t n, double lo, double hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(static_cast<size_t>(n));
  for (auto& x : v) x = dist(gen);
  return v;
}

// Close within a few ulp of the dtype (SLEEF's u10 functions and libm may differ by one or two).
bool close_ulp(double got, double want, double eps, double ulps = 4) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= ulps * eps * std::max(std::fabs(want), 1e-30) + 1e-300;
}

using Fn = Tensor (*)(const Tensor&);
struct FloatCase {
  const char* name;
  Fn op;
  double (*ref)(double);
  double lo, hi;
};
const std::vector<FloatCase>& float_cases() {
  static const std::vector<FloatCase> cases = {
      {"exp", exp, [](double x) { return std::exp(x); }, -80, 80},
      {"exp2", exp2, [](double x) { return std::exp2(x); }, -100, 100},
      {"expm1", expm1, [](double x) { return std::expm1(x); }, -5, 5},
      {"log", log, [](double x) { return std::log(x); }, 1e-5, 1e5},
      {"log2", log2, [](double x) { return std::log2(x); }, 1e-5, 1e5},
      {"log10", log10, [](double x) { return std::log10(x); }, 1e-5, 1e5},
      {"log1p", log1p, [](double x) { return std::log1p(x); }, -0.9, 10},
      {"sqrt", sqrt, [](double x) { return std::sqrt(x); }, 0, 1e4},
      {"rsqrt", rsqrt, [](double x) { return 1 / std::sqrt(x); }, 1e-3, 1e4},
      {"reciprocal", reciprocal, [](double x) { return 1 / x; }, 0.01, 100},
      {"sin", sin, [](double x) { return std::sin(x); }, -10, 10},
      {"cos", cos, [](double x) { return std::cos(x); }, -10, 10},
      {"tan", tan, [](double x) { return std::tan(x); }, -1.5, 1.5},
      {"asin", asin, [](double x) { return std::asin(x); }, -1, 1},
      {"acos", acos, [](double x) { return std::acos(x); }, -1, 1},
      {"atan", atan, [](double x) { return std::atan(x); }, -20, 20},
      {"sinh", sinh, [](double x) { return std::sinh(x); }, -10, 10},
      {"cosh", cosh, [](double x) { return std::cosh(x); }, -10, 10},
      {"tanh", tanh, [](double x) { return std::tanh(x); }, -10, 10},
      {"sigmoid", sigmoid, [](double x) { return 1 / (1 + std::exp(-x)); }, -20, 20},
      {"erf", erf, [](double x) { return std::erf(x); }, -4, 4},
      {"floor", floor, [](double x) { return std::floor(x); }, -1e3, 1e3},
      {"ceil", ceil, [](double x) { return std::ceil(x); }, -1e3, 1e3},
      {"round", round, [](double x) { return std::nearbyint(x); }, -1e3, 1e3},
      {"trunc", trunc, [](double x) { return std::trunc(x); }, -1e3, 1e3},
      {"frac", frac, [](double x) { return x - std::trunc(x); }, -1e3, 1e3},
      {"neg", neg, [](double x) { return -x; }, -1e3, 1e3},
      {"abs", abs, [](double x) { return std::fabs(x); }, -1e3, 1e3},
      {"square", square, [](double x) { return x * x; }, -1e3, 1e3},
      {"relu", relu, [](double x) { return x < 0 ? 0.0 : x; }, -1e3, 1e3},
  };
  return cases;
}

}  // namespace

TEST(UnaryDtypes, FloatOpsPromoteIntegralsToDefaultFloat) {
  for (const auto& c : float_cases()) {
    const std::string n = c.name;
    if (n == "floor" || n == "ceil" || n == "round" || n == "trunc" || n == "frac" || n == "neg" ||
        n == "abs" || n == "square" || n == "relu")
      continue;
    for (ScalarType dt : {kBool, kByte, kChar, kShort, kInt, kLong})
      EXPECT_EQ(c.op(ones({3}, TensorOptions(dt))).dtype(), kFloat) << c.name << " " << dt;
    for (ScalarType dt : {kHalf, kBFloat16, kFloat, kDouble})
      EXPECT_EQ(c.op(ones({3}, TensorOptions(dt))).dtype(), dt) << c.name << " " << dt;
  }
  EXPECT_EQ(erfinv(zeros({2}, TensorOptions(kInt))).dtype(), kFloat);
}

TEST(UnaryDtypes, DtypeKeepingOps) {
  for (ScalarType dt : {kByte, kChar, kShort, kInt, kLong, kFloat, kDouble, kBFloat16}) {
    Tensor x = ones({3}, TensorOptions(dt));
    for (Fn op : {Fn(neg), Fn(abs), Fn(sign), Fn(floor), Fn(ceil), Fn(round), Fn(trunc), Fn(relu),
                  Fn(square)})
      EXPECT_EQ(op(x).dtype(), dt);
  }
  Tensor b = ones({3}, TensorOptions(kBool));
  EXPECT_THROW(neg(b), TypeError);
  EXPECT_THROW(abs(b), TypeError);
  EXPECT_THROW(floor(b), TypeError);
  EXPECT_THROW(relu(b), TypeError);
  EXPECT_THROW(frac(ones({2}, TensorOptions(kInt))), TypeError);
  EXPECT_THROW(bitwise_not(ones({2})), TypeError);
  EXPECT_EQ(sign(b).dtype(), kBool);
  EXPECT_EQ(square(b).dtype(), kLong);
  EXPECT_EQ(bitwise_not(b).dtype(), kBool);
  EXPECT_EQ(to_vector(bitwise_not(from_vector({1, 0}, kBool))), (std::vector<double>{0, 1}));
  EXPECT_EQ(to_vector(bitwise_not(from_vector({5, -1}, kInt))), (std::vector<double>{-6, 0}));
  for (Fn op : {Fn(isnan), Fn(isinf), Fn(isfinite), Fn(logical_not)})
    for (ScalarType dt : {kBool, kInt, kHalf, kFloat})
      EXPECT_EQ(op(ones({2}, TensorOptions(dt))).dtype(), kBool);
}

TEST(UnaryDtypes, IntegerWrapAndRoundingOfInts) {
  EXPECT_EQ(to_vector(abs(from_vector({-128, -3}, kChar))), (std::vector<double>{-128, 3}));
  EXPECT_EQ(to_vector(neg(from_vector({0, 5}, kByte))), (std::vector<double>{0, 251}));
  EXPECT_EQ(to_vector(sign(from_vector({0, 5}, kByte))), (std::vector<double>{0, 1}));
  EXPECT_EQ(to_vector(sign(from_vector({-7, 0, 9}, kLong))), (std::vector<double>{-1, 0, 1}));
  EXPECT_EQ(to_vector(floor(from_vector({-7, 9}, kInt))), (std::vector<double>{-7, 9}));
  EXPECT_EQ(to_vector(square(from_vector({1, 0}, kBool))), (std::vector<double>{1, 0}));
  EXPECT_EQ(to_vector(relu(from_vector({-7, 9}, kShort))), (std::vector<double>{0, 9}));
  EXPECT_EQ(to_vector(reciprocal(from_vector({0, 2}, kInt)))[0], INFINITY);
}

TEST(UnaryValues, MatchStdOnRandomInputsOfEveryLength) {
  for (const auto& c : float_cases()) {
    for (ScalarType dt : {kFloat, kDouble}) {
      const double eps = dt == kFloat ? 1.1920929e-07 : 2.220446049250313e-16;
      for (int64_t n = 1; n <= 100; n += (n < 40 ? 1 : 13)) {
        std::vector<double> in = random_values(n, c.lo, c.hi, uint32_t(n));
        Tensor x = from_vector(in, dt);
        std::vector<double> xs = to_vector(x);  // the values as rounded to dt
        std::vector<double> got = to_vector(c.op(x));
        for (int64_t i = 0; i < n; ++i) {
          double want = c.ref(xs[size_t(i)]);
          if (dt == kFloat) want = double(float(want));
          ASSERT_TRUE(close_ulp(got[size_t(i)], want, eps))
              << c.name << " " << dt << " n=" << n << " x=" << xs[size_t(i)] << " got "
              << got[size_t(i)] << " want " << want;
        }
      }
    }
  }
}

TEST(UnaryValues, ReducedFloatsComputeInFloat) {
  std::vector<double> in = random_values(37, -3, 3, 7);
  for (ScalarType dt : {kHalf, kBFloat16}) {
    Tensor x = from_vector(in, dt);
    for (auto [op, ref] :
         {std::pair<Fn, Fn>{exp, exp}, {tanh, tanh}, {sigmoid, sigmoid}, {floor, floor}}) {
      Tensor want = ref(x.to(kFloat)).to(dt);  // float result rounded once
      EXPECT_EQ(to_vector(op(x)), to_vector(want));
    }
  }
}

TEST(UnaryValues, SpecialValues) {
  const double nan = NAN, inf = INFINITY;
  auto v = [](Fn op, std::vector<double> in, ScalarType dt = kFloat) {
    return to_vector(op(from_vector(in, dt)));
  };
  EXPECT_EQ(v(round, {0.5, 1.5, 2.5, -0.5, -1.5, 3.49999}),
            (std::vector<double>{0, 2, 2, -0.0, -2, 3}));
  EXPECT_TRUE(std::signbit(v(round, {-0.5})[0]));
  EXPECT_EQ(v(sign, {nan, -0.0, 0.0, -2, inf}), (std::vector<double>{0, 0, 0, -1, 1}));
  auto r = v(relu, {nan, -0.0, -1, 2});
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_TRUE(std::signbit(r[1]));
  EXPECT_EQ(r[2], 0);
  EXPECT_FALSE(std::signbit(v(abs, {-0.0})[0]));
  auto f = v(frac, {-1.5, 2.25, inf, nan});
  EXPECT_EQ(f[0], -0.5);
  EXPECT_EQ(f[1], 0.25);
  EXPECT_TRUE(std::isnan(f[2]) && std::isnan(f[3]));
  auto rs = v(rsqrt, {0, -1, 4});
  EXPECT_EQ(rs[0], inf);
  EXPECT_TRUE(std::isnan(rs[1]));
  EXPECT_EQ(rs[2], 0.5);
  EXPECT_EQ(v(sigmoid, {-200, 200}), (std::vector<double>{0, 1}));
  EXPECT_EQ(v(erf, {inf, -inf}), (std::vector<double>{1, -1}));
  EXPECT_EQ(v(exp, {-inf, inf, 0}), (std::vector<double>{0, inf, 1}));
  EXPECT_EQ(v(log, {0, 1, inf}), (std::vector<double>{-inf, 0, inf}));
  EXPECT_TRUE(std::isnan(v(log, {-1})[0]));
  EXPECT_EQ(v(isnan, {nan, inf, 1}), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(v(isinf, {nan, -inf, 1}), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(v(isfinite, {nan, -inf, 1}), (std::vector<double>{0, 0, 1}));
  EXPECT_EQ(v(logical_not, {nan, 0, 2}), (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(v(isfinite, {3, -1}, kInt), (std::vector<double>{1, 1}));
}

TEST(UnaryValues, ErfinvIsTheInverseOfErf) {
  auto e = to_vector(erfinv(from_vector({-1, 1, 0, 1.5, -1.0000001, NAN})));
  EXPECT_EQ(e[0], -INFINITY);
  EXPECT_EQ(e[1], INFINITY);
  EXPECT_EQ(e[2], 0);
  EXPECT_TRUE(std::isnan(e[3]) && std::isnan(e[4]) && std::isnan(e[5]));
  EXPECT_NEAR(to_vector(erfinv(from_vector({0.5})))[0], 0.47693627620446987, 1e-16);
  std::vector<double> ys = random_values(200, -1, 1, 3);
  ys.insert(ys.end(), {1e-300, -1e-20, 0.999999999999, -0.9999999999999999, 1 - 1e-16});
  auto xs = to_vector(erfinv(from_vector(ys)));
  for (size_t i = 0; i < ys.size(); ++i) {
    const double y = ys[i], x = xs[i];
    // |erf(x) - y| within the rounding of x: erf'(x) * ulp(x), plus an ulp of y.
    const double slope = 1.1283791670955126 * std::exp(-x * x);
    const double tol = 4e-16 * (std::fabs(y) + slope * std::fabs(x)) + 1e-300;
    if (std::fabs(y) > 0.9) {
      EXPECT_NEAR(std::erfc(std::fabs(x)), 1 - std::fabs(y),
                  4e-16 * (1 - std::fabs(y)) + 8e-16 * slope * std::fabs(x))
          << y;
    } else {
      EXPECT_NEAR(std::erf(x), y, tol) << y;
    }
  }
  auto xf = to_vector(erfinv(from_vector({0.5, -0.9, 0.99}, kFloat)));
  EXPECT_EQ(xf[0], double(float(0.47693627620446987)));
}

TEST(UnaryForms, InPlaceOutAndCasting) {
  Tensor x = from_vector({0.5, 1, 2}, kFloat);
  Tensor want = exp(x);
  Tensor y = x.clone();
  EXPECT_TRUE(y.exp_().is_same(y));
  EXPECT_EQ(to_vector(y), to_vector(want));
  Tensor out = empty({0}, TensorOptions(kDouble));
  exp_out(out, x);
  EXPECT_EQ(out.dtype(), kDouble);
  EXPECT_EQ(out.sizes(), IntArrayRef({3}));
  EXPECT_EQ(to_vector(out), to_vector(want));
  Tensor i = from_vector({0, 2}, kLong);
  EXPECT_THROW(i.exp_(), TypeError);
  EXPECT_THROW(i.sqrt_(), TypeError);
  Tensor li = empty({2}, TensorOptions(kLong));
  EXPECT_THROW(exp_out(li, i), TypeError);
  EXPECT_EQ(to_vector(i.neg_()), (std::vector<double>{0, -2}));
  Tensor f = empty({2});
  EXPECT_THROW(abs_out(f, i), TypeError);  // dtype-keeping ops need out's dtype to match
  EXPECT_THROW(floor_out(li, from_vector({1.5, 2}, kFloat)), TypeError);
  Tensor lo = empty({2});
  logical_not_out(lo, from_vector({0, 2}, kFloat));  // any out dtype
  EXPECT_EQ(to_vector(lo), (std::vector<double>{1, 0}));
  Tensor fl = from_vector({1, 0}, kFloat);
  fl.logical_not_();
  EXPECT_EQ(fl.dtype(), kFloat);
  EXPECT_EQ(to_vector(fl), (std::vector<double>{0, 1}));
  EXPECT_THROW(exp_out(f, from_vector({1, 2, 3}, kFloat)), ValueError);  // wrong shape, not empty
  EXPECT_EQ(to_vector(negative(from_vector({1}))), (std::vector<double>{-1}));
  EXPECT_EQ(to_vector(absolute(from_vector({-1}))), (std::vector<double>{1}));
  EXPECT_EQ(to_vector(-from_vector({2})), (std::vector<double>{-2}));
  EXPECT_EQ(to_vector(~from_vector({2}, kInt)), (std::vector<double>{-3}));
}

TEST(UnaryForms, NonContiguousZeroDimEmptyAndMeta) {
  // Every other element of a 2x50 buffer, through a strided input and a strided out=.
  for (ScalarType dt : {kFloat, kDouble, kHalf}) {
    Tensor base = from_vector(random_values(100, -2, 2, 11), dt);
    Tensor view = detail::make_view(base, {2, 25}, {50, 2}, 1);
    Tensor dense = view.contiguous();
    for (Fn op : {Fn(exp), Fn(tanh), Fn(floor), Fn(neg), Fn(sigmoid)})
      EXPECT_EQ(to_vector(op(view)), to_vector(op(dense)));
    // out= into a strided view (element stride 4, dims swapped)
    Tensor obuf = zeros({100}, TensorOptions(dt));
    Tensor oview = detail::make_view(obuf, {2, 25}, {1, 4}, 0);
    exp_out(oview, view);
    EXPECT_EQ(to_vector(oview), to_vector(exp(dense)));
    floor_out(oview, view);
    EXPECT_EQ(to_vector(oview), to_vector(floor(dense)));
    EXPECT_EQ(to_vector(obuf)[2], 0.0);  // untouched gap
  }
  Tensor s = scalar_tensor(4.0);
  Tensor r = sqrt(s);
  EXPECT_EQ(r.dim(), 0);
  EXPECT_EQ(r.item<double>(), 2.0);
  Tensor e = exp(empty({0, 3}, TensorOptions(kInt)));
  EXPECT_EQ(e.sizes(), IntArrayRef({0, 3}));
  EXPECT_EQ(e.dtype(), kFloat);
  Tensor m = exp(empty({2, 3}, TensorOptions(kMeta).dtype(kInt)));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.dtype(), kFloat);
  EXPECT_EQ(isnan(empty({4}, TensorOptions(kMeta))).dtype(), kBool);
}

TEST(UnaryForms, ScalarBroadcastInput) {
  // An expanded (stride 0) input goes through the broadcast path of the loops.
  Tensor one = from_vector({0.25}, kFloat);
  Tensor wide = detail::make_view(one, {37}, {0}, 0);
  std::vector<double> got = to_vector(erf(wide));
  for (double g : got) EXPECT_EQ(g, to_vector(erf(one))[0]);
}

// The DEFAULT (scalar) kernels give the same values within tolerance: rerun the value tests in a
// child process with the capability forced down.
TEST(UnaryCapability, ScalarBuildPassesTheValueTests) {
  if (std::getenv("BRASA_CPU_CAPABILITY_OVERRIDE")) GTEST_SKIP() << "already overridden";
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string cmd = "BRASA_CPU_CAPABILITY_OVERRIDE=default " + exe +
                    " --gtest_filter='UnaryValues.*:UnaryForms.*' > /dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
}
