#pragma once
// The source tree, for tests that read committed fixtures (malformed corpora, fuzz seeds): found
// above this header's path, the test binary or the working directory (ccache may hand the compiler
// a relative __FILE__).

#include <filesystem>
#include <vector>

namespace brasa::testing {

/// The first directory above one of the starting points that contains `marker` (a path relative to
/// the source root, e.g. "tests/serialize/malformed/zip"); empty when there is none.
inline std::filesystem::path source_dir(const std::filesystem::path& marker) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> starts{fs::absolute(fs::path(__FILE__).parent_path(), ec),
                               fs::read_symlink("/proc/self/exe", ec).parent_path(),
                               fs::current_path(ec)};
  for (fs::path p : starts) {
    for (; !p.empty(); p = p.parent_path()) {
      if (fs::is_directory(p / marker, ec)) return p;
      if (p == p.parent_path()) break;
    }
  }
  return {};
}

}  // namespace brasa::testing
