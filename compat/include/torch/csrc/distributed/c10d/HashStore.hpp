#pragma once
// <torch/csrc/distributed/c10d/HashStore.hpp>: c10d::HashStore is brasa::distributed::HashStore.

#include "brasa/distributed/hash_store.h"
#include "torch/csrc/distributed/c10d/brasa_namespace.h"
