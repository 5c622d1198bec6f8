#pragma once
// The error every reader of files and byte buffers throws on malformed or unsafe input.

#include "brasa/core/error.h"

namespace brasa {

/// A file or byte buffer being read is malformed or unsafe; the message names the file, the record
/// or field, and what was expected.
class BRASA_API SerializationError : public ValueError {
 public:
  using ValueError::ValueError;
};

}  // namespace brasa
