#pragma once
// Building and caching generated C++ (Note [Kernel cache] in kernel_cache.cpp).

#include <string>

namespace brasa::compiler {

/// The loaded shared object of `source`: built by the system compiler (BRASA_CXX, default g++)
/// or found in the disk cache (BRASA_COMPILE_CACHE, default $XDG_CACHE_HOME/brasa/compile or
/// ~/.cache/brasa/compile). Null, after one warning per reason, when no compiler works or the
/// build fails: the caller then runs the graph op by op.
void* load_kernels(const std::string& source, std::string* source_path);

/// The cache directory in use (created on demand).
std::string cache_dir();

}  // namespace brasa::compiler
