#pragma once
// The CPU fallback of a backend (Note [CPU fallback]): an op with no kernel for the device runs on
// the CPU. Each fallen-back op warns once (not per call); BRASA_FALLBACK=error turns fallbacks into
// NotImplementedError, BRASA_FALLBACK=silent drops the warnings; fallback_report() counts them.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::backend {

/// The boxed CPU fallback: copies the device tensors of `stack` to the CPU together (tensors that
/// share a storage keep sharing it), runs the op's CPU kernel, copies written inputs back into the
/// caller's device tensors and moves results to the device. View ops are refused
/// (NotImplementedError): a CPU result cannot alias device memory. Mixed devices are refused
/// (ValueError) except 0-d CPU tensors and copy_'s source.
BRASA_API void cpu_fallback(const OperatorHandle& op, Stack& stack);

enum class FallbackMode { Warn, Silent, Error };
/// BRASA_FALLBACK=warn|silent|error at start-up; settable for tests.
BRASA_API FallbackMode fallback_mode();
BRASA_API void set_fallback_mode(FallbackMode mode);

struct FallbackCount {
  std::string op;
  int64_t calls = 0;
};
/// Ops that fell back since start (or the last reset), most calls first.
BRASA_API std::vector<FallbackCount> fallback_report();
BRASA_API void reset_fallback_report();
/// Writes the report as a table ("N ops fell back to the CPU: ...").
BRASA_API void print_fallback_report(std::ostream& os);

}  // namespace brasa::backend
