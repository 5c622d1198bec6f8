#pragma once
// Conversions of in-memory training state to IValue trees (what checkpoints store): optimizer
// state dicts and LR-scheduler state. Python's torch.load reads the results as nested dicts.

#include "brasa/optim/optimizer.h"
#include "brasa/serialize/ivalue.h"

namespace brasa::serialize {

/// {"state": {index: {"tensors": {...}, "buffers": {...}, "tensor_lists": {...}, "scalars": {...},
/// "strings": {...}}}, "param_groups": [{"params": [...], "options": {...}}]} (empty parts left
/// out).
BRASA_API IValue optimizer_state_to_ivalue(const optim::OptimizerStateDict& dict);
/// The inverse; throws SerializationError naming the path of a missing or mistyped entry.
BRASA_API optim::OptimizerStateDict optimizer_state_from_ivalue(const IValue& value);

}  // namespace brasa::serialize
