#pragma once
// BRASA_LOG=recompiles,guards,fusion,codegen,cache,graph (or "all"): one line per event on stderr,
// "[brasa compile:<topic>] ...". Read once per process.

#include <string>

namespace brasa::compiler {

bool log_enabled(const char* topic);
/// Writes the line when `topic` is enabled.
void log(const char* topic, const std::string& message);

}  // namespace brasa::compiler
