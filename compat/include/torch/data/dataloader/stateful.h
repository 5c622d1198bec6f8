#pragma once
// <torch/data/dataloader/stateful.h>: StatefulDataLoader (torch::data is brasa::data).

#include "brasa/data/dataloader/stateful.h"
#include "c10/brasa_namespaces.h"
