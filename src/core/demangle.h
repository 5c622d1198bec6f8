#pragma once
// A C++ type's readable name (core/demangle.cpp).

#include <string>

namespace brasa::detail {

/// The demangled form of a mangled name (`typeid(T).name()`); the name itself when it is not one.
std::string demangle(const char* mangled);

}  // namespace brasa::detail
