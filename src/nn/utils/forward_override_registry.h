#pragma once
// Note [Overrides go with their module]: the registry of forward overrides lives for the whole
// process, so an entry left behind by a destroyed module would keep whatever its override
// captured (tensor parallel's process group, and through it a TCPStore server with its threads
// and sockets) alive until some later set_forward_override pruned it, or forever. Module's
// destructor removes the module's entry instead.

namespace brasa::nn {
class Module;
}

namespace brasa::nn::utils::detail {

/// Removes `module`'s override, if it has one; called by Module's destructor.
void forget_forward_override(const Module* module) noexcept;

}  // namespace brasa::nn::utils::detail
