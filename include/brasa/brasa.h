#pragma once
// The native API in one include.

#include "brasa/archive/archive.h"
#include "brasa/archive/error.h"
#include "brasa/archive/ivalue.h"
#include "brasa/archive/pt.h"
#include "brasa/autograd/custom_function.h"
#include "brasa/autograd/gradcheck.h"
#include "brasa/backend.h"
#include "brasa/data.h"
#include "brasa/functions.h"
#include "brasa/nn/nn.h"
#include "brasa/optim.h"
#include "brasa/serialize/checkpoint.h"
#include "brasa/serialize/safetensors.h"
#include "brasa/serialize/save_load.h"
#include "brasa/serialize/training_state.h"
