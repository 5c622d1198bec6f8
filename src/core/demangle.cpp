#include "core/demangle.h"

#include <cxxabi.h>

#include <cstdlib>

namespace brasa::detail {

std::string demangle(const char* mangled) {
  int status = 0;
  char* raw = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string out = (status == 0 && raw != nullptr) ? std::string(raw) : std::string(mangled);
  std::free(raw);  // NOLINT(cppcoreguidelines-no-malloc)
  return out;
}

}  // namespace brasa::detail
