#pragma once
// c10d::ProcessGroupMPI (libtorch's header name) = brasa::distributed::ProcessGroupMPI.

#include "brasa/distributed/process_group_mpi.h"
#include "torch/csrc/distributed/c10d/brasa_namespace.h"
