#pragma once
// at::zeros, at::add, ...: brasa's free functions (whatever brasa/brasa.h declares).

#include "brasa/brasa.h"
#include "c10/brasa_namespaces.h"
