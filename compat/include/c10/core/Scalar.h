#pragma once
// c10::Scalar is brasa::Scalar.

#include "brasa/core/scalar.h"
#include "c10/brasa_namespaces.h"
