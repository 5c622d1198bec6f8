#pragma once
// The Box-Muller transform of libtorch 1.13's float normal_ block form (Note [libtorch CPU
// sampling] in backends/cpu/mt_sampling.h), compiled per CPU capability: AVX2 and AVX-512 builds
// run it eight lanes at a time, the DEFAULT build lane by lane; every build gives the same bits.

#include <cstdint>

#include "backends/cpu/stub.h"

namespace brasa::cpu::mt {

/// Transforms `blocks` consecutive blocks of 16 uniforms in [0, 1) at `data` into normals: element
/// j < 8 of a block pairs with j + 8 (u1 = 1 - data[j], u2 = data[j + 8]).
using NormalBlocksFloatKernel = void (*)(float* data, int64_t blocks, float mean, float std);
BRASA_DECLARE_STUB(normal_blocks_float_stub, NormalBlocksFloatKernel);

}  // namespace brasa::cpu::mt
