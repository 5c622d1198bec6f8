#pragma once
// The process-wide counters behind brasa::compile_stats().

#include "brasa/compile.h"

namespace brasa::compiler {

/// Adds one to a counter of CompileStats.
void bump(int64_t CompileStats::*counter);
/// Adds n to a counter of CompileStats.
void add(int64_t CompileStats::*counter, int64_t n);
void add_recompile_reason(const std::string& reason);

}  // namespace brasa::compiler
