#pragma once
// <c10/util/intrusive_ptr.h>: c10::intrusive_ptr<T> is brasa::IntrusivePtr<T> (count in the
// object); c10::make_intrusive is brasa::make_intrusive.

#include "brasa/core/intrusive_ptr.h"
#include "c10/brasa_namespaces.h"

namespace c10 {
template <typename T>
using intrusive_ptr = ::brasa::IntrusivePtr<T>;
}  // namespace c10
