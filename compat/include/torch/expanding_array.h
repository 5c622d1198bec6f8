#pragma once
// torch::ExpandingArray and torch::ExpandingArrayWithOptionalElem are brasa's
// (brasa/nn/expanding_array.h).

#include "brasa/nn/expanding_array.h"
#include "c10/brasa_namespaces.h"
