#pragma once
// Note [Composite functions in Python]
// Some of torch's functions are not dispatched ops in brasa but composites of its public C++ API
// (matmul, reshape, clone, to, the random factories): they have no declaration to bind from, so
// they are bound here one by one with typed signatures, as functions and Tensor methods, always
// calling the same C++ function a C++ program calls. Keep this list to what the registry lacks.

#include <nanobind/nanobind.h>

namespace brasa::python {

void bind_composites(nanobind::module_& m, nanobind::handle tensor_class);
/// More of them, as functions only (composite_functions.cpp; methods: python/brasa/_functions.py).
void bind_composite_functions(nanobind::module_& m);
/// scatter, index_add, tile, narrow, movedim, flips, splits (indexing_functions.cpp).
void bind_indexing_functions(nanobind::module_& m);
/// Pointwise math, products, isclose/isin, windows, ... (math_functions.cpp).
void bind_math_functions(nanobind::module_& m);
/// stft/istft, histogram(dd), segment_reduce, index_reduce(_) (binned_functions.cpp).
void bind_binned_functions(nanobind::module_& m);
/// cholesky_solve/inverse, triangular_solve, lu_unpack, orgqr/ormqr, matrix_exp, cross, dist,
/// nuclear_norm, norm_except_dim (legacy_linalg_functions.cpp).
void bind_legacy_linalg_functions(nanobind::module_& m);
/// Creates the submodule `_special` of m: torch.special (special_binding.cpp).
void bind_special(nanobind::module_& m);

}  // namespace brasa::python
