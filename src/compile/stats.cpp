#include "compile/stats.h"

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>

#include "compile/log.h"

namespace brasa::compiler {
namespace {

std::mutex g_mutex;
CompileStats g_stats;

std::string log_topics() {
  const char* v = std::getenv("BRASA_LOG");
  return v ? "," + std::string(v) + "," : "";
}

}  // namespace

void bump(int64_t CompileStats::*counter) {
  std::lock_guard<std::mutex> lock(g_mutex);
  ++(g_stats.*counter);
}

void add(int64_t CompileStats::*counter, int64_t n) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_stats.*counter += n;
}

void add_recompile_reason(const std::string& reason) {
  std::lock_guard<std::mutex> lock(g_mutex);
  ++g_stats.recompiles;
  g_stats.recompile_reasons.push_back(reason);
}

bool log_enabled(const char* topic) {
  static const std::string topics = log_topics();
  return !topics.empty() && (topics.find(",all,") != std::string::npos ||
                             topics.find("," + std::string(topic) + ",") != std::string::npos);
}

void log(const char* topic, const std::string& message) {
  if (!log_enabled(topic)) return;
  std::ostringstream os;
  os << "[brasa compile:" << topic << "] " << message << "\n";
  std::cerr << os.str() << std::flush;
}

}  // namespace brasa::compiler

namespace brasa {

CompileStats compile_stats() {
  std::lock_guard<std::mutex> lock(compiler::g_mutex);
  return compiler::g_stats;
}

void reset_compile_stats() {
  std::lock_guard<std::mutex> lock(compiler::g_mutex);
  compiler::g_stats = CompileStats{};
}

}  // namespace brasa
