#pragma once
// Fused eager (Note [Fused eager] in fused_eager.cpp): the tracer's fallback hands ops here when
// no trace is active.

#include "brasa/dispatch/dispatcher.h"

namespace brasa::compiler {

/// Records `op` as a pending pointwise op when fused eager is on for this thread and the op
/// fuses (true: its pending result is on the stack); otherwise computes what is pending and
/// returns false (the caller runs the op).
bool fused_eager_kernel(const OperatorHandle& op, Stack& stack);

/// RAII: computes this thread's pending ops and keeps fused eager from recording for the scope
/// (compile's calls: their trace and replay run ops plainly).
class SuspendFusedEager {
 public:
  SuspendFusedEager();
  ~SuspendFusedEager();
  SuspendFusedEager(const SuspendFusedEager&) = delete;
  SuspendFusedEager& operator=(const SuspendFusedEager&) = delete;
};

}  // namespace brasa::compiler
