// Transcendentals in generated code (Note [Generated math] in src/compile/codegen.cpp): exp, erf,
// tanh, log, log1p, expm1, sin, cos are vectorised through the GNU vector ABI onto the SLEEF
// functions eager calls (the generated object has _ZGV* variants, not libm per element), so each is
// bit for bit eager's, tails and strided loops included; tanh-GELU too. Float erf is generated code
// of its own (Note [Generated erf]): within 1 ulp of eager's, over a sweep of every exponent.
#include <fstream>
#include <iterator>

#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using VectorMath = CompileTest;

TEST_F(VectorMath, TranscendentalsAndGeluFormsBitwiseEqualEager) {
  auto fn = [](const Tensor& x) {
    Tensor a = x.abs() + 0.5;  // exact, as in eager: each function's input is eager's
    Tensor inner = (x + x * x * x * 0.044715) * std::sqrt(2.0 / M_PI);
    Tensor tanh_gelu = x * (inner.tanh() + 1) * 0.5;
    return std::vector<Tensor>{(x * 0.5).tanh(),   (a * 3).log(), (a * 0.5).log1p(),
                               (x * 0.25).expm1(), (x * 2).sin(), (x * 2).cos(),
                               tanh_gelu};
  };
  auto f = compile(fn);
  for (const Tensor& x : {randn({1003}) * 4, randn({64, 129}).t() * 3, randn({5000}, kDouble)}) {
    f(x);
    std::vector<Tensor> got = f(x), want = fn(x);
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(bitwise_equal(got[i], want[i]))
          << "output " << i << ": " << max_ulps(got[i], want[i]) << " ulp";
  }
  // The shared objects have vector variants (GNU vector ABI names), e.g. _ZGVeN16v_brasa_tanhf.
  bool vector_calls = false;
  for (const std::string& so : files_ending(".so")) {
    std::ifstream in(so, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    vector_calls = vector_calls || (bytes.find("v_brasa_logf") != std::string::npos &&
                                    bytes.find("v_brasa_tanhf") != std::string::npos &&
                                    bytes.find("Sleef_") != std::string::npos);
  }
  EXPECT_TRUE(vector_calls);
}

TEST_F(VectorMath, ErfWithinOneUlpOfEagerAndGeluClose) {
  auto fn = [](const Tensor& x) {
    return std::vector<Tensor>{x.erf(), x * ((x * M_SQRT1_2).erf() + 1) * 0.5};
  };
  auto f = compile(fn);
  // Every float exponent from 2^-149 to 2^7, 4096 mantissas each, both signs; +-0, +-inf, NaN.
  std::vector<float> v;
  for (int e = -149; e <= 7; ++e)
    for (int m = 0; m < 4096; ++m) {
      const float x = std::ldexp(1.0f + static_cast<float>(m) / 4096.0f, e);
      v.push_back(x);
      v.push_back(-x);
    }
  for (float s : {0.0f, -0.0f, INFINITY, -INFINITY, NAN}) v.push_back(s);
  Tensor x = tensor(v);
  f(x);
  std::vector<Tensor> got = f(x), want = fn(x);
  EXPECT_LE(max_ulps(got[0], want[0]), 1);
  EXPECT_EQ(max_ulps(got[0].neg(), f(x.neg())[0]), 0);  // odd
  // GELU: erf's 1 ulp near -1 is a large relative error in erf + 1, but under 2e-7 |x| absolute.
  Tensor diff = nan_to_num((got[1] - want[1]).abs(), 0, 0, 0);
  EXPECT_TRUE((diff <= nan_to_num(x.abs(), 0, 0, 0) * 2e-7).all().item<bool>())
      << diff.max().item<double>();
  // Double erf stays SLEEF's, bit for bit eager's.
  Tensor xd = nan_to_num(x.to(kDouble), 0, 0, 0);
  f(xd);
  EXPECT_TRUE(bitwise_equal(f(xd)[0], xd.erf()));
}

}  // namespace
}  // namespace brasa::compile_test
