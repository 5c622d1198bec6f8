#pragma once
// c10::guts: the helpers of libtorch's C++17.h that programs and tests call: to_string (what
// operator<< prints) and make_unique_base (a unique_ptr<Base> to a new Child).

#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace c10::guts {

template <typename T>
std::string to_string(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

template <typename Base, typename Child, typename... Args>
std::enable_if_t<!std::is_array_v<Base> && !std::is_array_v<Child> &&
                     std::is_base_of_v<Base, Child>,
                 std::unique_ptr<Base>>
make_unique_base(Args&&... args) {
  return std::unique_ptr<Base>(new Child(std::forward<Args>(args)...));
}

}  // namespace c10::guts
