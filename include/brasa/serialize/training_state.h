#pragma once
// The optimizer state <-> IValue conversions under their earlier names; they live in optim
// (brasa/optim/state_ivalue.h).

#include "brasa/optim/state_ivalue.h"

namespace brasa::serialize {
using optim::optimizer_state_from_ivalue;
using optim::optimizer_state_to_ivalue;
}  // namespace brasa::serialize
