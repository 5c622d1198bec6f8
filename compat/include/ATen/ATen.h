#pragma once
// <ATen/ATen.h>: brasa's native API under the at::, c10:: and torch:: spellings.

#include "ATen/DeviceGuard.h"
#include "ATen/Dispatch.h"
#include "ATen/Functions.h"
#include "ATen/Parallel.h"
#include "ATen/Tensor.h"
#include "ATen/TensorIndexing.h"
#include "c10/core/Device.h"
#include "c10/core/Scalar.h"
#include "c10/core/ScalarType.h"
#include "c10/core/TensorOptions.h"
#include "c10/macros/Macros.h"
#include "c10/util/ArrayRef.h"
#include "c10/util/Exception.h"
#include "c10/util/Half.h"
#include "c10/util/Optional.h"
#include "c10/util/irange.h"
