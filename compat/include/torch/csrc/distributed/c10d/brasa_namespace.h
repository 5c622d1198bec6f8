#pragma once
// c10d:: names brasa::distributed (the c10d headers of this folder include this).

#include "brasa/distributed/error.h"
#include "c10/util/intrusive_ptr.h"

namespace brasa::distributed {}
namespace c10d {
using namespace ::brasa::distributed;  // NOLINT
}  // namespace c10d
