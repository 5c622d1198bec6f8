#pragma once
// <torch/linalg.h>: torch::linalg:: (inv, solve, det, slogdet, cholesky, qr, svd, svdvals, eigh,
// eigvalsh, lstsq, pinv, norm, vector_norm, matrix_norm) and the at::linalg_* functions, on
// LAPACK (Note [LAPACK]); see docs/compat.md.

#include "brasa/ops/linalg_decomp.h"
#include "c10/brasa_namespaces.h"
