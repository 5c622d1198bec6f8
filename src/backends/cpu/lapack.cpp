// Note [LAPACK]
// The linear-algebra decompositions (inv, solve, det, cholesky, qr, svd, eigh, lstsq) call the
// system LAPACK through its Fortran interface: Debian's liblapack-dev provides liblapack.so, which
// the alternatives system points at the best LAPACK installed (OpenBLAS's when libopenblas0 is
// there, as with PyTorch's own Debian build, else the reference LAPACK). We declare the handful of
// routines ourselves instead of using LAPACKE: its row-major mode only transposes into a copy, and
// one fewer package. Character arguments pass their hidden Fortran lengths (gfortran's ABI).
//
// Threading: OpenBLAS starts its own pool of threads and splits each factorisation over them with
// a partition that depends on the thread count. That competes with brasa's OpenMP threads and makes
// results depend on the machine's cores, so the first LAPACK call sets OpenBLAS to one thread (the
// symbol is looked up at run time: the reference LAPACK has none) and the ops run batch elements in
// parallel themselves, each element on one thread: results are the same for any thread count.
//
// Loading: libbrasa does not link LAPACK. The first decomposition dlopens liblapack.so.3 (the
// alternatives' link) and looks its routines up. Linked, OpenBLAS started its thread pool in every
// process that loads libbrasa, which made a one-op forward and backward (autograd_1) 11% slower,
// and mapped ~30 MB into programs that never factorise a matrix.
#include "backends/cpu/lapack.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "brasa/core/error.h"

// The routines' types (declared only to be named by decltype: nothing links against them).
extern "C" {
// NOLINTBEGIN: LAPACK's Fortran names and argument order.
void sgetrf_(const int*, const int*, float*, const int*, int*, int*);
void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
void sgetri_(const int*, float*, const int*, const int*, float*, const int*, int*);
void dgetri_(const int*, double*, const int*, const int*, double*, const int*, int*);
void sgetrs_(const char*, const int*, const int*, const float*, const int*, const int*, float*,
             const int*, int*, size_t);
void dgetrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*,
             const int*, int*, size_t);
void spotrf_(const char*, const int*, float*, const int*, int*, size_t);
void dpotrf_(const char*, const int*, double*, const int*, int*, size_t);
void sgeqrf_(const int*, const int*, float*, const int*, float*, float*, const int*, int*);
void dgeqrf_(const int*, const int*, double*, const int*, double*, double*, const int*, int*);
void sorgqr_(const int*, const int*, const int*, float*, const int*, const float*, float*,
             const int*, int*);
void dorgqr_(const int*, const int*, const int*, double*, const int*, const double*, double*,
             const int*, int*);
void sgesdd_(const char*, const int*, const int*, float*, const int*, float*, float*, const int*,
             float*, const int*, float*, const int*, int*, int*, size_t);
void dgesdd_(const char*, const int*, const int*, double*, const int*, double*, double*, const int*,
             double*, const int*, double*, const int*, int*, int*, size_t);
void ssyevd_(const char*, const char*, const int*, float*, const int*, float*, float*, const int*,
             int*, const int*, int*, size_t, size_t);
void dsyevd_(const char*, const char*, const int*, double*, const int*, double*, double*,
             const int*, int*, const int*, int*, size_t, size_t);
void sgels_(const char*, const int*, const int*, const int*, float*, const int*, float*, const int*,
            float*, const int*, int*, size_t);
void dgels_(const char*, const int*, const int*, const int*, double*, const int*, double*,
            const int*, double*, const int*, int*, size_t);
void sgelsy_(const int*, const int*, const int*, float*, const int*, float*, const int*, int*,
             const float*, int*, float*, const int*, int*);
void dgelsy_(const int*, const int*, const int*, double*, const int*, double*, const int*, int*,
             const double*, int*, double*, const int*, int*);
void sgelsd_(const int*, const int*, const int*, float*, const int*, float*, const int*, float*,
             const float*, int*, float*, const int*, int*, int*);
void dgelsd_(const int*, const int*, const int*, double*, const int*, double*, const int*, double*,
             const double*, int*, double*, const int*, int*, int*);
void sgelss_(const int*, const int*, const int*, float*, const int*, float*, const int*, float*,
             const float*, int*, float*, const int*, int*);
void dgelss_(const int*, const int*, const int*, double*, const int*, double*, const int*, double*,
             const double*, int*, double*, const int*, int*);
void sgeev_(const char*, const char*, const int*, float*, const int*, float*, float*, float*,
            const int*, float*, const int*, float*, const int*, int*, size_t, size_t);
void dgeev_(const char*, const char*, const int*, double*, const int*, double*, double*, double*,
            const int*, double*, const int*, double*, const int*, int*, size_t, size_t);
void ssytrf_(const char*, const int*, float*, const int*, int*, float*, const int*, int*, size_t);
void dsytrf_(const char*, const int*, double*, const int*, int*, double*, const int*, int*, size_t);
void ssytrs_(const char*, const int*, const int*, const float*, const int*, const int*, float*,
             const int*, int*, size_t);
void dsytrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*,
             const int*, int*, size_t);
// NOLINTEND
}

namespace brasa::cpu::lapack {
namespace {

// The routines, looked up in the LAPACK that liblapack.so.3 names (Note [LAPACK]).
struct Routines {
  decltype(&sgetrf_) sgetrf;
  decltype(&dgetrf_) dgetrf;
  decltype(&sgetri_) sgetri;
  decltype(&dgetri_) dgetri;
  decltype(&sgetrs_) sgetrs;
  decltype(&dgetrs_) dgetrs;
  decltype(&spotrf_) spotrf;
  decltype(&dpotrf_) dpotrf;
  decltype(&sgeqrf_) sgeqrf;
  decltype(&dgeqrf_) dgeqrf;
  decltype(&sorgqr_) sorgqr;
  decltype(&dorgqr_) dorgqr;
  decltype(&sgesdd_) sgesdd;
  decltype(&dgesdd_) dgesdd;
  decltype(&ssyevd_) ssyevd;
  decltype(&dsyevd_) dsyevd;
  decltype(&sgels_) sgels;
  decltype(&dgels_) dgels;
  decltype(&sgelsy_) sgelsy;
  decltype(&dgelsy_) dgelsy;
  decltype(&sgelsd_) sgelsd;
  decltype(&dgelsd_) dgelsd;
  decltype(&sgelss_) sgelss;
  decltype(&dgelss_) dgelss;
  decltype(&sgeev_) sgeev;
  decltype(&dgeev_) dgeev;
  decltype(&ssytrf_) ssytrf;
  decltype(&dsytrf_) dsytrf;
  decltype(&ssytrs_) ssytrs;
  decltype(&dsytrs_) dsytrs;
};

const Routines& routines() {
  static const Routines r = [] {
    void* lib = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
    BRASA_CHECK(lib != nullptr,
                "linear algebra: could not load LAPACK (liblapack.so.3): ", dlerror(),
                "; install Debian's liblapack3 or libopenblas0");
    Routines l{};
    auto need = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
      BRASA_CHECK(fn != nullptr, "linear algebra: the LAPACK behind liblapack.so.3 has no ", name);
    };
    need(l.sgetrf, "sgetrf_");
    need(l.dgetrf, "dgetrf_");
    need(l.sgetri, "sgetri_");
    need(l.dgetri, "dgetri_");
    need(l.sgetrs, "sgetrs_");
    need(l.dgetrs, "dgetrs_");
    need(l.spotrf, "spotrf_");
    need(l.dpotrf, "dpotrf_");
    need(l.sgeqrf, "sgeqrf_");
    need(l.dgeqrf, "dgeqrf_");
    need(l.sorgqr, "sorgqr_");
    need(l.dorgqr, "dorgqr_");
    need(l.sgesdd, "sgesdd_");
    need(l.dgesdd, "dgesdd_");
    need(l.ssyevd, "ssyevd_");
    need(l.dsyevd, "dsyevd_");
    need(l.sgels, "sgels_");
    need(l.dgels, "dgels_");
    need(l.sgelsy, "sgelsy_");
    need(l.dgelsy, "dgelsy_");
    need(l.sgelsd, "sgelsd_");
    need(l.dgelsd, "dgelsd_");
    need(l.sgelss, "sgelss_");
    need(l.dgelss, "dgelss_");
    need(l.sgeev, "sgeev_");
    need(l.dgeev, "dgeev_");
    need(l.ssytrf, "ssytrf_");
    need(l.dsytrf, "dsytrf_");
    need(l.ssytrs, "ssytrs_");
    need(l.dsytrs, "dsytrs_");
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(dlsym(lib, "openblas_set_num_threads"))) set(1);
    return l;
  }();
  return r;
}

// Picks the s- or d- routine for T.
#define BRASA_LAPACK(T, name, ...)          \
  do {                                      \
    if constexpr (std::is_same_v<T, float>) \
      routines().s##name(__VA_ARGS__);      \
    else                                    \
      routines().d##name(__VA_ARGS__);      \
  } while (0)

// A workspace size as LAPACK's query returns it (a float holding an integer).
template <class T>
int work_size(T query) {
  return std::max(1, static_cast<int>(query));
}

}  // namespace

template <class T>
int getrf(int m, int n, T* a, int lda, int* ipiv) {
  int info = 0;
  BRASA_LAPACK(T, getrf, &m, &n, a, &lda, ipiv, &info);
  return info;
}

template <class T>
int getri(int n, T* a, int lda, const int* ipiv) {
  int info = 0, lwork = -1;
  T query = 0;
  BRASA_LAPACK(T, getri, &n, a, &lda, ipiv, &query, &lwork, &info);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, getri, &n, a, &lda, ipiv, work.data(), &lwork, &info);
  return info;
}

template <class T>
int getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  int info = 0;
  BRASA_LAPACK(T, getrs, &trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
  return info;
}

template <class T>
int potrf(char uplo, int n, T* a, int lda) {
  int info = 0;
  BRASA_LAPACK(T, potrf, &uplo, &n, a, &lda, &info, 1);
  return info;
}

template <class T>
int geqrf(int m, int n, T* a, int lda, T* tau) {
  int info = 0, lwork = -1;
  T query = 0;
  BRASA_LAPACK(T, geqrf, &m, &n, a, &lda, tau, &query, &lwork, &info);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, geqrf, &m, &n, a, &lda, tau, work.data(), &lwork, &info);
  return info;
}

template <class T>
int orgqr(int m, int n, int k, T* a, int lda, const T* tau) {
  int info = 0, lwork = -1;
  T query = 0;
  BRASA_LAPACK(T, orgqr, &m, &n, &k, a, &lda, tau, &query, &lwork, &info);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, orgqr, &m, &n, &k, a, &lda, tau, work.data(), &lwork, &info);
  return info;
}

template <class T>
int gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt) {
  int info = 0, lwork = -1;
  T query = 0;
  std::vector<int> iwork(8 * static_cast<size_t>(std::min(m, n)) + 1);
  BRASA_LAPACK(T, gesdd, &jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, &query, &lwork,
               iwork.data(), &info, 1);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, gesdd, &jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work.data(), &lwork,
               iwork.data(), &info, 1);
  return info;
}

template <class T>
int syevd(char jobz, char uplo, int n, T* a, int lda, T* w) {
  int info = 0, lwork = -1, liwork = -1, iquery = 0;
  T query = 0;
  BRASA_LAPACK(T, syevd, &jobz, &uplo, &n, a, &lda, w, &query, &lwork, &iquery, &liwork, &info, 1,
               1);
  lwork = work_size(query);
  liwork = std::max(1, iquery);
  std::vector<T> work(lwork);
  std::vector<int> iwork(liwork);
  BRASA_LAPACK(T, syevd, &jobz, &uplo, &n, a, &lda, w, work.data(), &lwork, iwork.data(), &liwork,
               &info, 1, 1);
  return info;
}

template <class T>
int gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb) {
  const char trans = 'N';
  int info = 0, lwork = -1;
  T query = 0;
  BRASA_LAPACK(T, gels, &trans, &m, &n, &nrhs, a, &lda, b, &ldb, &query, &lwork, &info, 1);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, gels, &trans, &m, &n, &nrhs, a, &lda, b, &ldb, work.data(), &lwork, &info, 1);
  return info;
}

template <class T>
int gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T rcond, int* rank) {
  int info = 0, lwork = -1;
  T query = 0;
  std::vector<int> jpvt(std::max(n, 1), 0);  // 0: every column is free to move
  BRASA_LAPACK(T, gelsy, &m, &n, &nrhs, a, &lda, b, &ldb, jpvt.data(), &rcond, rank, &query, &lwork,
               &info);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, gelsy, &m, &n, &nrhs, a, &lda, b, &ldb, jpvt.data(), &rcond, rank, work.data(),
               &lwork, &info);
  return info;
}

template <class T>
int gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank) {
  int info = 0, lwork = -1, iquery = 0;
  T query = 0;
  BRASA_LAPACK(T, gelsd, &m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, &query, &lwork, &iquery,
               &info);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  std::vector<int> iwork(std::max(1, iquery));
  BRASA_LAPACK(T, gelsd, &m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work.data(), &lwork,
               iwork.data(), &info);
  return info;
}

template <class T>
int gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank) {
  int info = 0, lwork = -1;
  T query = 0;
  BRASA_LAPACK(T, gelss, &m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, &query, &lwork, &info);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, gelss, &m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work.data(), &lwork,
               &info);
  return info;
}

template <class T>
int geev(char jobvr, int n, T* a, int lda, T* wr, T* wi, T* vr, int ldvr) {
  const char jobvl = 'N';
  int info = 0, lwork = -1, ldvl = 1;
  T query = 0, vl = 0;
  BRASA_LAPACK(T, geev, &jobvl, &jobvr, &n, a, &lda, wr, wi, &vl, &ldvl, vr, &ldvr, &query, &lwork,
               &info, 1, 1);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, geev, &jobvl, &jobvr, &n, a, &lda, wr, wi, &vl, &ldvl, vr, &ldvr, work.data(),
               &lwork, &info, 1, 1);
  return info;
}

template <class T>
int sytrf(char uplo, int n, T* a, int lda, int* ipiv) {
  int info = 0, lwork = -1;
  T query = 0;
  BRASA_LAPACK(T, sytrf, &uplo, &n, a, &lda, ipiv, &query, &lwork, &info, 1);
  lwork = work_size(query);
  std::vector<T> work(lwork);
  BRASA_LAPACK(T, sytrf, &uplo, &n, a, &lda, ipiv, work.data(), &lwork, &info, 1);
  return info;
}

template <class T>
int sytrs(char uplo, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb) {
  int info = 0;
  BRASA_LAPACK(T, sytrs, &uplo, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info, 1);
  return info;
}

#define BRASA_LAPACK_INSTANTIATE(T)                                          \
  template int getrf<T>(int, int, T*, int, int*);                            \
  template int getri<T>(int, T*, int, const int*);                           \
  template int getrs<T>(char, int, int, const T*, int, const int*, T*, int); \
  template int potrf<T>(char, int, T*, int);                                 \
  template int geqrf<T>(int, int, T*, int, T*);                              \
  template int orgqr<T>(int, int, int, T*, int, const T*);                   \
  template int gesdd<T>(char, int, int, T*, int, T*, T*, int, T*, int);      \
  template int syevd<T>(char, char, int, T*, int, T*);                       \
  template int gels<T>(int, int, int, T*, int, T*, int);                     \
  template int gelsy<T>(int, int, int, T*, int, T*, int, T, int*);           \
  template int gelsd<T>(int, int, int, T*, int, T*, int, T*, T, int*);       \
  template int gelss<T>(int, int, int, T*, int, T*, int, T*, T, int*);       \
  template int geev<T>(char, int, T*, int, T*, T*, T*, int);                 \
  template int sytrf<T>(char, int, T*, int, int*);                           \
  template int sytrs<T>(char, int, int, const T*, int, const int*, T*, int);
BRASA_LAPACK_INSTANTIATE(float)
BRASA_LAPACK_INSTANTIATE(double)

}  // namespace brasa::cpu::lapack
