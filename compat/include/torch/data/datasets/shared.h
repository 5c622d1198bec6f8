#pragma once
// <torch/data/datasets/shared.h>:
// SharedBatchDataset, make_shared_dataset (torch::data is brasa::data).

#include "brasa/data/datasets/shared.h"
#include "c10/brasa_namespaces.h"
