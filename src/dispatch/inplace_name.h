#pragma once
// Note [In-place op names]
// autograd's in-place checks name the in-place op the program called (mul_, clamp_), derived from
// the dispatched op's name. An in-place method written as its functional op and a copy_ back
// (the generated write_back methods, tril_) reaches those checks through copy_; an InplaceName
// guard around that copy_ makes their errors name the method instead (xlogy_, tril_).

#include "dispatch/node_name.h"

namespace brasa::autograd {

/// The in-place op name the next in-place check gives its errors (nullptr: the op's own).
const char*& inplace_name_override();

/// RAII: in-place checks in its scope name `name` (nested guards restore the outer name).
using InplaceName = ScopedName<&inplace_name_override>;

}  // namespace brasa::autograd
