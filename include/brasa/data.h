#pragma once
// brasa::data (torch::data): datasets, transforms, samplers and the data loader.

#include "brasa/data/dataloader.h"
#include "brasa/data/dataloader/stateful.h"
#include "brasa/data/dataloader_options.h"
#include "brasa/data/datasets.h"
#include "brasa/data/detail/sequencers.h"
#include "brasa/data/example.h"
#include "brasa/data/iterator.h"
#include "brasa/data/samplers.h"
#include "brasa/data/transforms.h"
#include "brasa/data/worker_exception.h"

namespace brasa::data {
// The two base classes are also spelled torch::data::Dataset / BatchDataset, as libtorch's
// <torch/data.h> declares them (pytorch/examples' transfer-learning derives from the first).
using datasets::BatchDataset;
using datasets::Dataset;
}  // namespace brasa::data
