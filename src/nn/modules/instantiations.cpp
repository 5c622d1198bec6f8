// The library's one instantiation of Cloneable<Impl> per module (Note [Module instantiations] in
// brasa/nn/modules/instantiations.h).
#include "brasa/nn/modules/instantiations.h"

namespace brasa::nn {
#define BRASA_INSTANTIATE_CLONEABLE(Impl) template class Cloneable<Impl>;
BRASA_NN_LIBRARY_MODULES(BRASA_INSTANTIATE_CLONEABLE)
#undef BRASA_INSTANTIATE_CLONEABLE
}  // namespace brasa::nn
