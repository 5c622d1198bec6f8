#pragma once
// Typed front ends to the system LAPACK (Fortran interface, column-major matrices, 32-bit
// integers), for float and double. Each returns LAPACK's `info` (0 = success, > 0 = the routine's
// own failure code, < 0 = a bad argument, which would be a bug of ours) and sizes its workspace
// with LAPACK's query. The first call loads LAPACK (RuntimeError when none is installed); Note
// [LAPACK] says which library, how it is loaded and why one thread.

#include <cstdint>

namespace brasa::cpu::lapack {

/// LU with partial pivoting of the m x n `a`; ipiv gets min(m, n) 1-based pivots.
template <class T>
int getrf(int m, int n, T* a, int lda, int* ipiv);
/// Inverse from getrf's factors.
template <class T>
int getri(int n, T* a, int lda, const int* ipiv);
/// Solves A X = B (trans 'N') or A^T X = B ('T') with getrf's factors; X overwrites b.
template <class T>
int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb);
/// Cholesky factor (uplo 'L': A = L L^T) in the uplo triangle of a.
template <class T>
int potrf(char uplo, int n, T* a, int lda);
/// Householder QR: R in the upper triangle, reflectors below it and in tau[min(m, n)].
template <class T>
int geqrf(int m, int n, T* a, int lda, T* tau);
/// The first n columns of Q from geqrf's k reflectors (m x n result in a).
template <class T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau);
/// SVD by divide and conquer; jobz 'N' (values only), 'S' (thin) or 'A' (full). a is destroyed.
template <class T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt);
/// Symmetric eigendecomposition by divide and conquer: ascending values in w; with jobz 'V' the
/// eigenvectors overwrite a (columns). Reads the uplo triangle only.
template <class T>
int syevd(char jobz, char uplo, int n, T* a, int lda, T* w);

/// General eigendecomposition of the n x n `a` (destroyed): eigenvalues wr + i wi (a complex pair
/// consecutive, positive imaginary part first); with jobvr 'V' the right eigenvectors in vr
/// (columns; a pair's vectors are vr[:, j] +- i vr[:, j + 1]), each of Euclidean norm 1 with its
/// largest component real.
template <class T>
int geev(char jobvr, int n, T* a, int lda, T* wr, T* wi, T* vr, int ldvr);
/// Bunch-Kaufman factorisation A = L D L^T of the symmetric a (uplo triangle); ipiv[n] 1-based,
/// negative for 2 x 2 blocks of D.
template <class T>
int sytrf(char uplo, int n, T* a, int lda, int* ipiv);
/// Solves A X = B with sytrf's factors; X overwrites b.
template <class T>
int sytrs(char uplo, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb);
/// Least squares min ||A X - B|| for an m x n A and m x nrhs B (ldb >= max(m, n)); the solution
/// overwrites the first n rows of b. gels assumes full rank; gelsy (complete orthogonal
/// factorisation), gelsd (SVD, divide and conquer) and gelss (SVD) return the effective rank
/// (rcond: the relative cut-off), gelsd/gelss also the singular values in s[min(m, n)].
template <class T>
int gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb);
template <class T>
int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T rcond, int* rank);
template <class T>
int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank);
template <class T>
int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank);

}  // namespace brasa::cpu::lapack
