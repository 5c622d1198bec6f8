#pragma once
// Optimizer state dicts as IValue trees (what archives and checkpoints store); Python's torch.load
// reads the results as nested dicts. Optimizer::save / load use them.

#include "brasa/archive/ivalue.h"
#include "brasa/optim/optimizer.h"

namespace brasa::optim {

/// {"state": {index: {"tensors": {...}, "buffers": {...}, "tensor_lists": {...}, "scalars": {...},
/// "strings": {...}}}, "param_groups": [{"params": [...], "options": {...}}]} (empty parts left
/// out).
BRASA_API IValue optimizer_state_to_ivalue(const OptimizerStateDict& dict);
/// The inverse; throws SerializationError naming the path of a missing or mistyped entry.
BRASA_API OptimizerStateDict optimizer_state_from_ivalue(const IValue& value);

}  // namespace brasa::optim
