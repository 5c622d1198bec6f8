#pragma once
// c10d:: names brasa::distributed (the c10d headers of this folder include this). Like libtorch's
// c10d headers, they bring <ATen/ATen.h> (at::ones, TORCH_CHECK, c10::optional, ...), the
// c10/macros spellings (C10_UNUSED, ...), LOG(severity) and c10::ivalue::Future.

#include "ATen/ATen.h"
#include "ATen/core/ivalue.h"
#include "brasa/distributed/error.h"
#include "c10/macros/Macros.h"
#include "c10/util/Logging.h"
#include "c10/util/intrusive_ptr.h"

namespace brasa::distributed {}
namespace c10d {
using namespace ::brasa::distributed;  // NOLINT
}  // namespace c10d
