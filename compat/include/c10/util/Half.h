#pragma once
// c10::Half is brasa::Half (IEEE binary16 stored as uint16_t, arithmetic in float).

#include "brasa/core/half.h"
#include "c10/brasa_namespaces.h"
