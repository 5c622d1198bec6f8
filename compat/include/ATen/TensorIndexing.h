#pragma once
// at::indexing::Slice, None, Ellipsis: brasa::indexing, when this brasa has it.

#include "c10/brasa_namespaces.h"
#if __has_include("brasa/core/indexing.h")
#include "brasa/core/indexing.h"
#endif
