#pragma once
// <torch/data/samplers/serialize.h>: archive operators of samplers (torch::data is brasa::data).

#include "brasa/data/samplers/serialize.h"
#include "c10/brasa_namespaces.h"
