#pragma once
// <ATen/autocast_mode.h>: libtorch 1.13's CPU autocast switches (at::autocast::set_cpu_enabled,
// is_cpu_enabled, set_autocast_cpu_dtype, get_autocast_cpu_dtype, clear_cache,
// increment_nesting, decrement_nesting, is/set_autocast_cache_enabled) are brasa's
// (brasa/dispatch/autocast_mode.h, Note [Autocast]). CPU autocast takes BFloat16 only.

#include "brasa/dispatch/autocast_mode.h"
#include "c10/brasa_namespaces.h"
