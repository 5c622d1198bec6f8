#pragma once
// <torch/autograd.h>: torch::autograd::{backward, grad, Function, AutogradContext, ...} are
// brasa's.

#include "brasa/autograd/autograd.h"
#include "brasa/autograd/custom_function.h"
#include "brasa/autograd/grad_mode.h"
#include "brasa/autograd/gradcheck.h"
#include "c10/brasa_namespaces.h"
#include "torch/csrc/autograd/InferenceMode.h"
