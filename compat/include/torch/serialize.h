#pragma once
// <torch/serialize.h>: torch::save / torch::load (tensors, tensor vectors, modules, optimizers),
// torch::serialize::OutputArchive / InputArchive, torch::pickle_save / torch::pickle_load (the
// torch.save format as bytes), and the c10::IValue family. torch:: and c10:: nominate brasa
// (Note [libtorch namespaces]).

#include "brasa/archive/archive.h"
#include "brasa/archive/ivalue.h"
#include "brasa/archive/pt.h"
#include "brasa/serialize/save_load.h"
#include "c10/brasa_namespaces.h"

namespace c10 {
/// c10::Dict<IValue, IValue> and c10::List<IValue>: brasa's dict and list are untyped.
template <typename Key, typename Value>
using Dict = ::brasa::GenericDict;
template <typename T>
using List = ::brasa::GenericList;
namespace impl {
using GenericDict = ::brasa::GenericDict;
using GenericList = ::brasa::GenericList;
}  // namespace impl
}  // namespace c10
