#pragma once
// <torch/csrc/distributed/c10d/Store.hpp>: c10d::Store is brasa::distributed::Store.

#include "brasa/distributed/store.h"
#include "torch/csrc/distributed/c10d/brasa_namespace.h"
