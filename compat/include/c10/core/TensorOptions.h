#pragma once
// c10::TensorOptions, c10::Layout, c10::MemoryFormat are brasa's.

#include "brasa/core/tensor_options.h"
#include "c10/brasa_namespaces.h"
