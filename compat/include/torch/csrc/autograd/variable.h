#pragma once
// <torch/csrc/autograd/variable.h>: libtorch's autograd metadata of a tensor. What programs read of
// it in brasa is a view's creation kind: torch::autograd::CreationMeta and
// torch::autograd::creation_meta(view) (Note [View creation meta]), in place of libtorch's
// DifferentiableViewMeta::get_creation_meta().

#include "brasa/autograd/history.h"
#include "c10/brasa_namespaces.h"
