#pragma once
// at::indexing::Slice, None, Ellipsis: brasa::indexing.

#include "brasa/core/indexing.h"
#include "c10/brasa_namespaces.h"
