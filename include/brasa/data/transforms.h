#pragma once
// torch::data::transforms: batch/example transforms, Normalize and Stack.

#include "brasa/data/transforms/base.h"
#include "brasa/data/transforms/collate.h"
#include "brasa/data/transforms/lambda.h"
#include "brasa/data/transforms/stack.h"
#include "brasa/data/transforms/tensor.h"
