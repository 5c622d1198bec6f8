#pragma once
// brasa::nn in one include: Module, ModuleHolder, Cloneable, all modules, init, utils, functional.

#include "brasa/nn/cloneable.h"
#include "brasa/nn/functional.h"
#include "brasa/nn/init.h"
#include "brasa/nn/module.h"
#include "brasa/nn/modules.h"
#include "brasa/nn/ordered_dict.h"
#include "brasa/nn/pimpl.h"
#include "brasa/nn/utils.h"
