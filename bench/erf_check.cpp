// Every float in [0, 4.5] (1.08e9 values; erf is odd and 1 beyond) through the compiled erf (Note
// [Generated erf] in src/compile/codegen.cpp) against eager's erf (SLEEF's erff on AVX2/AVX-512)
// and against erf in double rounded to float: the largest distance in ulps and where. Usage:
// erf_check [stride] (every stride-th float; 1 by default).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/compile.h"

namespace {

int64_t ulps(float a, float b) {
  if (a == b || (std::isnan(a) && std::isnan(b))) return 0;
  if (std::isnan(a) || std::isnan(b)) return INT64_MAX;
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0) ia = INT32_MIN - ia;
  if (ib < 0) ib = INT32_MIN - ib;
  return std::llabs(static_cast<int64_t>(ia) - ib);
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t stride = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 1;
  const uint32_t end = 0x40900000u;  // 4.5f
  const int64_t chunk = 1 << 24;
  // x * 1 is exact; a lone op would not be fused (a run of one node stays eager).
  auto f = brasa::compile([](const brasa::Tensor& x) { return (x * 1.0).erf(); });
  std::vector<float> buf(chunk);
  int64_t worst_eager = 0, worst_exact = 0;
  float at_eager = 0, at_exact = 0;
  for (uint64_t base = 0; base < end; base += static_cast<uint64_t>(chunk) * stride) {
    int64_t n = 0;
    for (uint64_t b = base; b < end && n < chunk; b += stride, ++n) {
      const uint32_t bits = static_cast<uint32_t>(b);
      std::memcpy(&buf[n], &bits, 4);
    }
    brasa::Tensor x = brasa::from_blob(buf.data(), {n}, brasa::TensorOptions(brasa::kFloat));
    f(x);  // a new size is traced, and a traced call returns eager's results
    const brasa::Tensor got = f(x), want = x.erf();
    const float* g = got.data_ptr<float>();
    const float* w = want.data_ptr<float>();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t d = ulps(g[i], w[i]);
      if (d > worst_eager) worst_eager = d, at_eager = buf[i];
      const int64_t e = ulps(g[i], static_cast<float>(std::erf(static_cast<double>(buf[i]))));
      if (e > worst_exact) worst_exact = e, at_exact = buf[i];
    }
  }
  std::printf(
      "compiled erf, every %u-th float in [0, 4.5]: %lld ulp from eager (at %a), %lld ulp "
      "from the correctly rounded value (at %a)\n",
      stride, static_cast<long long>(worst_eager), at_eager, static_cast<long long>(worst_exact),
      at_exact);
  return worst_eager <= 1 ? 0 : 1;
}
