#pragma once
// <torch/csrc/distributed/c10d/PrefixStore.hpp>: c10d::PrefixStore is
// brasa::distributed::PrefixStore.

#include "brasa/distributed/prefix_store.h"
#include "torch/csrc/distributed/c10d/brasa_namespace.h"
