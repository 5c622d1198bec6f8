#pragma once
// c10::complex<T> is brasa::complex<T> (two T's, real first; std::abs/arg/conj/norm overloads).

#include "brasa/core/complex.h"
#include "c10/brasa_namespaces.h"
