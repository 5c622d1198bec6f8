#pragma once
// torch::data::samplers: sequential, random, stream and distributed samplers.

#include "brasa/data/samplers/base.h"
#include "brasa/data/samplers/distributed.h"
#include "brasa/data/samplers/random.h"
#include "brasa/data/samplers/sequential.h"
#include "brasa/data/samplers/stream.h"
