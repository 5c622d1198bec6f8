#pragma once
// <torch/nn/pimpl.h>: torch::nn::ModuleHolder is brasa's; TORCH_MODULE(Name) declares the holder
// `Name` of `NameImpl`, TORCH_MODULE_IMPL(Name, Impl) of any Impl.

#include "brasa/nn/pimpl.h"
#include "c10/brasa_namespaces.h"

#define TORCH_MODULE_IMPL(Name, ImplType) BRASA_MODULE_IMPL(Name, ImplType)
#define TORCH_MODULE(Name) BRASA_MODULE_IMPL(Name, Name##Impl)
