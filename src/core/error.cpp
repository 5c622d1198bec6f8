#include "brasa/core/error.h"

#include <sstream>

#include "brasa/core/array_ref.h"

namespace brasa {
Error::~Error() = default;  // the key function: one vtable and type_info, in libbrasa

namespace detail {
void write_c_string(std::ostream& os, const void* value) {
  os << (value != nullptr ? static_cast<const char*>(value) : "(null)");
}

std::string join_message(const MessagePart* parts, std::size_t count) {
  std::ostringstream ss;
  for (std::size_t i = 0; i < count; ++i) parts[i].write(ss, parts[i].value);
  return ss.str();
}

void throw_joined(void (*thrower)(const std::string&), const MessagePart* parts,
                  std::size_t count) {
  thrower(join_message(parts, count));
  __builtin_unreachable();  // every thrower throws
}

void throw_internal(const char* file, int line, const char* cond, const std::string& msg) {
  throw InternalError(str_cat("internal error (a bug in brasa, please report it): ", cond,
                              " failed at ", file, ":", line, msg.empty() ? "" : ": ", msg));
}

void throw_array_ref_index_error(size_t index, size_t size) {
  throw IndexError(str_cat("ArrayRef::at: index ", index, " is out of range for an ArrayRef of ",
                           size, " elements"));
}
}  // namespace detail
}  // namespace brasa
