#pragma once
// <torch/csrc/distributed/c10d/FileStore.hpp>: c10d::FileStore is brasa::distributed::FileStore.

#include "brasa/distributed/file_store.h"
#include "torch/csrc/distributed/c10d/brasa_namespace.h"
