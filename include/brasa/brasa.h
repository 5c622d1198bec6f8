#pragma once
// The native API in one include.

#include "brasa/core/accessor.h"
#include "brasa/core/allocator.h"
#include "brasa/core/device.h"
#include "brasa/core/dtype.h"
#include "brasa/core/error.h"
#include "brasa/core/generator.h"
#include "brasa/core/indexing.h"
#include "brasa/core/parallel.h"
#include "brasa/core/scalar.h"
#include "brasa/core/tensor.h"
#include "brasa/core/tensor_options.h"
#include "brasa/core/type_promotion.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/pointwise.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/view.h"
