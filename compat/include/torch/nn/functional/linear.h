#pragma once
// <torch/nn/functional/linear.h>: forwards to brasa/ops/attention.h, brasa/ops/linalg.h.

#include "brasa/ops/attention.h"
#include "brasa/ops/linalg.h"
#include "c10/brasa_namespaces.h"
