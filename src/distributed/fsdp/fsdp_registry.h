#pragma once
// Note [FSDP registry]
// C++ modules carry no FSDP state of their own, so fully_shard records its units here: a unit
// must find the units of its submodules (to skip their parameters, and to tell the root), and
// the state-dict functions find the unit that manages a parameter. Entries are weak: a unit
// lives as long as its FSDPModule handles.

#include <memory>
#include <vector>

#include "brasa/distributed/fsdp.h"

namespace brasa::distributed::detail {

void register_unit(const std::shared_ptr<FSDPState>& unit);
/// The live units, in creation order.
std::vector<std::shared_ptr<FSDPState>> live_units();
/// The unit that manages `param`, or null.
std::shared_ptr<FSDPState> unit_of(const Tensor& param);
/// Whether `inner` is `outer` or one of its submodules.
bool contains(const nn::Module& outer, const nn::Module& inner);

}  // namespace brasa::distributed::detail
