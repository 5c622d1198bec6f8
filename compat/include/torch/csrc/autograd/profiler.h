#pragma once
// <torch/csrc/autograd/profiler.h>: the record scopes of <ATen/record_function.h>, RecordProfile
// (profile a C++ scope into a Chrome trace) and profilerEnabled(), over brasa's profiler
// (brasa/profiler/profiler.h). libtorch's enableProfilerLegacy / disableProfilerLegacy (with their
// LegacyEvent lists) and the Kineto API are not provided: code calling them fails to compile
// rather than silently profiling nothing; brasa::profiler::Profiler is the native equivalent.

#include <iostream>
#include <memory>
#include <string>

#include "ATen/record_function.h"
#include "brasa/core/warning.h"
#include "brasa/profiler/profiler.h"

namespace torch::autograd::profiler {

/// Whether a profiler records now.
inline bool profilerEnabled() { return brasa::profiler::detail::is_recording(); }

/// Profiles everything from construction to destruction (with input shapes) and then writes the
/// Chrome trace to the stream, or atomically to the file (open it in chrome://tracing or
/// Perfetto). Throws RuntimeError when another profiler records, or, for a file, when the
/// file's folder cannot be written; a failure while writing at destruction is a warning.
class RecordProfile {
 public:
  explicit RecordProfile(std::ostream& out) : out_(&out) { start(); }
  explicit RecordProfile(const std::string& filename) : path_(filename) {
    brasa::profiler::check_trace_path(path_);
    start();
  }
  RecordProfile(const RecordProfile&) = delete;
  RecordProfile& operator=(const RecordProfile&) = delete;
  ~RecordProfile() {
    profiler_.stop();
    try {
      if (out_)
        *out_ << profiler_.chrome_trace();
      else
        profiler_.export_chrome_trace(path_);
    } catch (const std::exception& e) {
      brasa::warn(std::string("RecordProfile: ") + e.what());
    }
  }

 private:
  void start() { profiler_.start(); }
  std::ostream* out_ = nullptr;
  std::string path_;
  brasa::profiler::Profiler profiler_{brasa::profiler::ProfilerOptions().record_shapes(true)};
};

}  // namespace torch::autograd::profiler
