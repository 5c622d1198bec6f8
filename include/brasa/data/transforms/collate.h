#pragma once
// Collation / Collate: transforms that turn a vector of examples into one batch value.

#include <vector>

#include "brasa/data/transforms/base.h"
#include "brasa/data/transforms/lambda.h"

namespace brasa::data::transforms {

template <typename T, typename BatchType = std::vector<T>>
using Collation = BatchTransform<BatchType, T>;

template <typename T, typename BatchType = std::vector<T>>
using Collate = BatchLambda<BatchType, T>;

}  // namespace brasa::data::transforms
