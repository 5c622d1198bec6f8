#pragma once
// c10::ArrayRef<T> and c10::IntArrayRef are brasa's.

#include "brasa/core/array_ref.h"
#include "c10/brasa_namespaces.h"
