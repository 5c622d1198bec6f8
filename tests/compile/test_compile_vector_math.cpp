// Transcendentals in generated code (Note [Generated math] in src/compile/codegen.cpp): exp, erf,
// tanh, log, log1p, expm1, sin, cos are vectorised through the GNU vector ABI onto the SLEEF
// functions eager calls (the generated object has _ZGV* variants, not libm per element), so each is
// bit for bit eager's, tails and strided loops included; GELU in both forms too.
#include <fstream>
#include <iterator>

#include "compile/compile_test_util.h"

namespace brasa::compile_test {
namespace {

using VectorMath = CompileTest;

TEST_F(VectorMath, TranscendentalsAndGeluFormsBitwiseEqualEager) {
  auto fn = [](const Tensor& x) {
    Tensor a = x.abs() + 0.5;  // exact, as in eager: each function's input is eager's
    Tensor erf_gelu = x * ((x * M_SQRT1_2).erf() + 1) * 0.5;
    Tensor inner = (x + x * x * x * 0.044715) * std::sqrt(2.0 / M_PI);
    Tensor tanh_gelu = x * (inner.tanh() + 1) * 0.5;
    return std::vector<Tensor>{(x * 0.5).erf(),   (x * 0.5).tanh(),   (a * 3).log(),
                               (a * 0.5).log1p(), (x * 0.25).expm1(), (x * 2).sin(),
                               (x * 2).cos(),     erf_gelu,           tanh_gelu};
  };
  auto f = compile(fn);
  for (const Tensor& x : {randn({1003}) * 4, randn({64, 129}).t() * 3, randn({5000}, kDouble)}) {
    f(x);
    std::vector<Tensor> got = f(x), want = fn(x);
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(bitwise_equal(got[i], want[i]))
          << "output " << i << ": " << max_ulps(got[i], want[i]) << " ulp";
  }
  // The shared objects have vector variants (GNU vector ABI names), e.g. _ZGVeN16v_brasa_erff.
  bool vector_calls = false;
  for (const std::string& so : files_ending(".so")) {
    std::ifstream in(so, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    vector_calls = vector_calls || (bytes.find("v_brasa_erff") != std::string::npos &&
                                    bytes.find("v_brasa_tanhf") != std::string::npos &&
                                    bytes.find("Sleef_") != std::string::npos);
  }
  EXPECT_TRUE(vector_calls);
}

}  // namespace
}  // namespace brasa::compile_test
