#pragma once
// <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>: c10d::ProcessGroupGloo is
// brasa::distributed::ProcessGroupGloo (its device handles are the opaque
// std::shared_ptr<GlooDevice>, not std::shared_ptr<::gloo::transport::Device>).

#include "brasa/distributed/process_group_gloo.h"
#include "torch/csrc/distributed/c10d/ProcessGroup.hpp"
#include "torch/csrc/distributed/c10d/brasa_namespace.h"
