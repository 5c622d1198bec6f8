#include "brasa/core/error.h"

namespace brasa {
Error::~Error() = default;  // the key function: one vtable and type_info, in libbrasa

namespace detail {
void throw_internal(const char* file, int line, const char* cond, const std::string& msg) {
  throw InternalError(str_cat("internal error (a bug in brasa, please report it): ", cond,
                              " failed at ", file, ":", line, msg.empty() ? "" : ": ", msg));
}
}  // namespace detail
}  // namespace brasa
