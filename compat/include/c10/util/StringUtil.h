#pragma once
// <c10/util/StringUtil.h>: c10::str (its arguments streamed into one string), c10::Join
// (a container's elements with a delimiter between them) and c10::SourceLocation (where a warning
// or error was raised: function, file, line). As in libtorch, where at:: nominates c10:: and
// torch:: nominates at::, c10::str and c10::Join are also at::str/Join and torch::str/Join
// (pytorch/examples' cpp/dcgan names its sample files with torch::str).

#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>

namespace c10 {

/// The arguments streamed one after the other, as one string (c10::str() is "").
template <typename... Args>
std::string str(const Args&... args) {
  std::ostringstream ss;
  ((ss << args), ...);
  return ss.str();
}

/// The elements of `v` streamed with `delimiter` between them.
template <class Container>
std::string Join(const std::string& delimiter, const Container& v) {
  std::ostringstream ss;
  bool first = true;
  for (const auto& e : v) {
    if (!first) ss << delimiter;
    ss << e;
    first = false;
  }
  return ss.str();
}

/// Where something was raised: TORCH_WARN fills it with __func__, __FILE__ and __LINE__.
struct SourceLocation {
  const char* function;
  const char* file;
  uint32_t line;
};

/// "function at file:line".
inline std::ostream& operator<<(std::ostream& out, const SourceLocation& loc) {
  return out << loc.function << " at " << loc.file << ":" << loc.line;
}

}  // namespace c10

namespace at {
using ::c10::Join;
using ::c10::SourceLocation;
using ::c10::str;
}  // namespace at
namespace torch {
using ::c10::Join;
using ::c10::SourceLocation;
using ::c10::str;
}  // namespace torch
