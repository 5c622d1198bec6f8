#pragma once
// torch::data::datasets: the dataset interfaces, MapDataset, TensorDataset and MNIST.

#include "brasa/data/datasets/base.h"
#include "brasa/data/datasets/map.h"
#include "brasa/data/datasets/mnist.h"
#include "brasa/data/datasets/tensor.h"
