#pragma once
// <torch/csrc/distributed/c10d/ProcessGroup.hpp>: c10d::ProcessGroup, c10d::Work, c10d::ReduceOp
// and the collective *Options structs are brasa::distributed's.

#include "brasa/distributed/process_group.h"
#include "torch/csrc/distributed/c10d/brasa_namespace.h"
