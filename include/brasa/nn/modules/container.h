#pragma once
// The container modules: AnyModule, Sequential, ModuleList, ModuleDict, ParameterList,
// ParameterDict, Functional.

#include "brasa/nn/modules/container/any.h"
#include "brasa/nn/modules/container/functional.h"
#include "brasa/nn/modules/container/moduledict.h"
#include "brasa/nn/modules/container/modulelist.h"
#include "brasa/nn/modules/container/named_any.h"
#include "brasa/nn/modules/container/parameterlist.h"
#include "brasa/nn/modules/container/sequential.h"
