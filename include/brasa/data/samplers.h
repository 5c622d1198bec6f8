#pragma once
// torch::data::samplers: sequential, random, stream and distributed samplers, and their archive
// operators.

#include "brasa/data/samplers/base.h"
#include "brasa/data/samplers/distributed.h"
#include "brasa/data/samplers/random.h"
#include "brasa/data/samplers/sequential.h"
#include "brasa/data/samplers/serialize.h"
#include "brasa/data/samplers/stream.h"
