#pragma once
// at::parallel_for(begin, end, grain_size, f), at::get_num_threads, at::set_num_threads,
// at::in_parallel_region are brasa's (brasa/core/parallel.h); at::launch,
// at::set_num_interop_threads, at::get_num_interop_threads and at::init_num_threads too
// (brasa/core/interop.h).

#include "brasa/core/interop.h"
#include "brasa/core/parallel.h"
#include "c10/brasa_namespaces.h"
