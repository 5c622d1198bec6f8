#include <cstdlib>
#include <string>

#include "backends/cpu/stub.h"
#include "brasa/core/warning.h"

namespace brasa::cpu {

namespace {
// Each capability is chosen only when the CPU has every instruction set its build is compiled for
// (cmake/BrasaKernels.cmake): AVX2 builds use FMA, F16C and BMI2 too, AVX-512 builds all of those.
bool has_avx2_build_isa() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
         __builtin_cpu_supports("f16c") && __builtin_cpu_supports("bmi2");
}
bool has_avx512_build_isa() {
  return has_avx2_build_isa() && __builtin_cpu_supports("avx512f") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512dq");
}

CpuCapability detect() {
  __builtin_cpu_init();
  CpuCapability best = CpuCapability::DEFAULT;
  if (has_avx2_build_isa()) best = CpuCapability::AVX2;
  if (has_avx512_build_isa()) best = CpuCapability::AVX512;
  if (const char* o = std::getenv("BRASA_CPU_CAPABILITY_OVERRIDE")) {
    const std::string s = o;
    CpuCapability want = best;
    if (s == "default")
      want = CpuCapability::DEFAULT;
    else if (s == "avx2")
      want = CpuCapability::AVX2;
    else if (s == "avx512")
      want = CpuCapability::AVX512;
    else
      warn("BRASA_CPU_CAPABILITY_OVERRIDE: expected default, avx2 or avx512, got '" + s +
           "'; using " + to_string(best));
    // Only a lower capability can be forced: the CPU may lack a higher one's instructions.
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
