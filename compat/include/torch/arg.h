#pragma once
// TORCH_ARG(T, name): libtorch's option-field macro, for options structs that programs write
// themselves (custom optimizers, modules): `opts.name(v)` sets the field and returns the options,
// `opts.name()` reads it. brasa's own options use the same macro under its name, BRASA_ARG.

#include "brasa/core/options_arg.h"

#define TORCH_ARG(T, name) BRASA_ARG(T, name)
