#pragma once
// <torch/data/detail/sequencers.h>:
// detail::sequencers (NoSequencer, OrderedSequencer) (torch::data is brasa::data).

#include "brasa/data/detail/sequencers.h"
#include "c10/brasa_namespaces.h"
