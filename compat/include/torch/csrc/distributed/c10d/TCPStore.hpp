#pragma once
// <torch/csrc/distributed/c10d/TCPStore.hpp>: c10d::TCPStore and c10d::TCPStoreOptions are
// brasa::distributed's.

#include "brasa/distributed/tcp_store.h"
#include "torch/csrc/distributed/c10d/brasa_namespace.h"
