#pragma once
// at::Tensor is brasa::Tensor.

#include "ATen/core/DeprecatedTypeProperties.h"
#include "brasa/core/tensor.h"
#include "c10/brasa_namespaces.h"
