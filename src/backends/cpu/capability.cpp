#include <cstdlib>
#include <string>

#include "backends/cpu/stub.h"

namespace brasa::cpu {

namespace {
CpuCapability detect() {
  __builtin_cpu_init();
  CpuCapability best = CpuCapability::DEFAULT;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) best = CpuCapability::AVX2;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
    best = CpuCapability::AVX512;
  if (const char* o = std::getenv("BRASA_CPU_CAPABILITY_OVERRIDE")) {
    std::string s = o;
    CpuCapability want = s == "default" ? CpuCapability::DEFAULT
                         : s == "avx2"  ? CpuCapability::AVX2
                                        : CpuCapability::AVX512;
    if (static_cast<int>(want) < static_cast<int>(best)) best = want;
  }
  return best;
}
}  // namespace

CpuCapability cpu_capability() {
  static const CpuCapability c = detect();
  return c;
}

const char* to_string(CpuCapability c) {
  switch (c) {
    case CpuCapability::DEFAULT: return "default";
    case CpuCapability::AVX2: return "avx2";
    case CpuCapability::AVX512: return "avx512";
    default: return "?";
  }
}

}  // namespace brasa::cpu
