#pragma once
// at::parallel_for(begin, end, grain_size, f), at::get_num_threads, at::set_num_threads,
// at::in_parallel_region are brasa's (brasa/core/parallel.h).

#include "brasa/core/parallel.h"
#include "c10/brasa_namespaces.h"
