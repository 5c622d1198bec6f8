#pragma once
// <torch/data/datasets/stateful.h>: StatefulDataset (torch::data is brasa::data).

#include "brasa/data/datasets/stateful.h"
#include "c10/brasa_namespaces.h"
