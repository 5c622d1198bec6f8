#pragma once
// <torch/data/detail/data_shuttle.h>: detail::DataShuttle (torch::data is brasa::data).

#include "brasa/data/detail/data_shuttle.h"
#include "c10/brasa_namespaces.h"
