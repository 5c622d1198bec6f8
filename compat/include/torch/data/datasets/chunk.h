#pragma once
// <torch/data/datasets/chunk.h>:
// ChunkDataReader, ChunkDatasetOptions, ChunkDataset (torch::data is brasa::data).

#include "brasa/data/datasets/chunk.h"
#include "c10/brasa_namespaces.h"
