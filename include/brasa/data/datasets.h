#pragma once
// torch::data::datasets: the dataset interfaces (stateless and stateful), MapDataset,
// SharedBatchDataset, ChunkDataset, TensorDataset and MNIST.

#include "brasa/data/datasets/base.h"
#include "brasa/data/datasets/chunk.h"
#include "brasa/data/datasets/map.h"
#include "brasa/data/datasets/mnist.h"
#include "brasa/data/datasets/shared.h"
#include "brasa/data/datasets/stateful.h"
#include "brasa/data/datasets/tensor.h"
