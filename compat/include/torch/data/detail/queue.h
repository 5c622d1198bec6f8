#pragma once
// <torch/data/detail/queue.h>: detail::Queue (torch::data is brasa::data).

#include "brasa/data/detail/queue.h"
#include "c10/brasa_namespaces.h"
