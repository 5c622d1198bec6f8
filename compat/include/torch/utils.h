#pragma once
// torch::manual_seed, torch::get_num_threads, torch::set_num_threads, the inter-op functions
// (set_num_interop_threads, get_num_interop_threads, init_num_threads) are brasa's.
// torch::NoGradGuard, torch::AutoGradMode and torch::InferenceMode are brasa's (autograd layer).

#include "brasa/autograd/grad_mode.h"
#include "brasa/core/generator.h"
#include "brasa/core/interop.h"
#include "brasa/core/parallel.h"
#include "c10/brasa_namespaces.h"
