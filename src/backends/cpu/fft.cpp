// FFTW front end of the fft ops (src/ops/fft/).
//
// Note [FFT library]
// The transforms run on FFTW 3 (Debian's libfftw3-dev). pocketfft, what PyTorch uses on CPU, is
// not packaged for Debian 12, and FFTW is the other Debian FFT library: O(n log n) for every size
// (prime sizes too, through Rader/Bluestein), single and double precision, and a guru interface
// that takes arbitrary strides and batch dims, so no input needs to be made contiguous first.
// Licence: FFTW is GPL-2+; a program that links libbrasa links FFTW, which binds a binary
// distribution of it to the GPL (recorded in docs/compat.md). Plans: each call makes an
// FFTW_ESTIMATE plan for its exact geometry (no measuring, microseconds for the sizes used here)
// and destroys it after one execution; FFTW keeps its own cache of the sub-plans ("wisdom") so
// repeated geometries plan faster. Plan creation is not thread-safe in FFTW, so it is serialised
// by a mutex; execution is, and runs unlocked, one thread per call (brasa's intra-op threads are
// not used: FFTW's threaded planner would need fftw_init_threads and its own pool).
// Speed (one thread, loaded 2-core machine, best of 20; PyTorch 1.13's pocketfft in brackets):
// rfft of 256 x 4096 floats 0.95 ms (1.1), fft of 64 x 1009 (prime) ComplexFloat 0.84 ms (0.45),
// rfft of 256 x 4099 (prime) floats 24 ms (8), fft2 of 512 x 512 ComplexDouble 1.4 ms (2.1).
// ESTIMATE plans are weak for strided transform dims (the 512-point columns of that fft2 took
// 8.9 ms in place, the rows 0.5 ms; an FFTW_MEASURE plan does the whole fft2 in 1.3 ms but takes
// 260 ms to make), hence Note [One dim at a time] in ops/fft/fft_ops.cpp; large primes stay
// slower than pocketfft's Bluestein. Caching MEASURE plans by geometry (with scratch arrays to
// plan on) is the next step if that matters.
#include "backends/cpu/fft.h"

#include <fftw3.h>

#include <mutex>
#include <vector>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"

namespace brasa::cpu {
namespace {

std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}

// The FFTW API of one precision.
template <typename T>
struct Fftw;
#define BRASA_FFTW_API(T, prefix)                                                                 \
  template <>                                                                                     \
  struct Fftw<T> {                                                                                \
    using plan = prefix##_plan;                                                                   \
    using cpx = prefix##_complex;                                                                 \
    static plan c2c(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* h, cpx* i, cpx* o,  \
                    int sign) {                                                                   \
      return prefix##_plan_guru64_dft(r, d, hr, h, i, o, sign, FFTW_ESTIMATE);                    \
    }                                                                                             \
    static plan r2c(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* h, T* i, cpx* o) {  \
      return prefix##_plan_guru64_dft_r2c(r, d, hr, h, i, o, FFTW_ESTIMATE);                      \
    }                                                                                             \
    static plan c2r(int r, const fftw_iodim64* d, int hr, const fftw_iodim64* h, cpx* i, T* o) {  \
      return prefix##_plan_guru64_dft_c2r(r, d, hr, h, i, o, FFTW_ESTIMATE | FFTW_DESTROY_INPUT); \
    }                                                                                             \
    static void execute(plan p) { prefix##_execute(p); }                                          \
    static void destroy(plan p) { prefix##_destroy_plan(p); }                                     \
  };
BRASA_FFTW_API(float, fftwf)
BRASA_FFTW_API(double, fftw)
#undef BRASA_FFTW_API

struct Geometry {
  std::vector<fftw_iodim64> dims, batch;
};

// Transform dims in the given order (FFTW halves the last one for R2C/C2R), every other dim as a
// batch dim. Sizes are the logical (real-side) sizes: in's for C2C/R2C, out's for C2R.
Geometry geometry(FftKind kind, const Tensor& in, const Tensor& out, IntArrayRef dims) {
  Geometry g;
  const Tensor& logical = kind == FftKind::C2R ? out : in;
  std::vector<bool> is_dim(size_t(in.dim()), false);
  for (int64_t d : dims) {
    is_dim[size_t(d)] = true;
    g.dims.push_back({logical.size(d), in.stride(d), out.stride(d)});
  }
  for (int64_t d = 0; d < in.dim(); ++d)
    if (!is_dim[size_t(d)]) g.batch.push_back({in.size(d), in.stride(d), out.stride(d)});
  return g;
}

// False when FFTW cannot plan this geometry (the caller retries on contiguous copies).
template <typename T>
bool execute(FftKind kind, const Tensor& in, const Tensor& out, IntArrayRef dims, bool forward) {
  using F = Fftw<T>;
  const Geometry g = geometry(kind, in, out, dims);
  const int rank = int(g.dims.size()), batch_rank = int(g.batch.size());
  typename F::plan p = nullptr;
  {
    std::lock_guard<std::mutex> lock(planner_mutex());
    switch (kind) {
      case FftKind::C2C:
        p = F::c2c(rank, g.dims.data(), batch_rank, g.batch.data(),
                   static_cast<typename F::cpx*>(in.data_ptr()),
                   static_cast<typename F::cpx*>(out.data_ptr()),
                   forward ? FFTW_FORWARD : FFTW_BACKWARD);
        break;
      case FftKind::R2C:
        p = F::r2c(rank, g.dims.data(), batch_rank, g.batch.data(), static_cast<T*>(in.data_ptr()),
                   static_cast<typename F::cpx*>(out.data_ptr()));
        break;
      case FftKind::C2R:
        p = F::c2r(rank, g.dims.data(), batch_rank, g.batch.data(),
                   static_cast<typename F::cpx*>(in.data_ptr()), static_cast<T*>(out.data_ptr()));
        break;
    }
  }
  if (p == nullptr) return false;
  F::execute(p);
  std::lock_guard<std::mutex> lock(planner_mutex());
  F::destroy(p);
  return true;
}

bool execute_any(FftKind kind, const Tensor& in, const Tensor& out, IntArrayRef dims,
                 bool forward) {
  const ScalarType real = to_real_value_type(kind == FftKind::R2C ? in.dtype() : out.dtype());
  if (real == kFloat) return execute<float>(kind, in, out, dims, forward);
  BRASA_CHECK_TYPED(InternalError, real == kDouble, "fft: unexpected dtypes ", in.dtype(), " -> ",
                    out.dtype());
  return execute<double>(kind, in, out, dims, forward);
}

}  // namespace

void fft_execute(FftKind kind, const Tensor& in, const Tensor& out, IntArrayRef dims,
                 bool forward) {
  if (in.numel() == 0 || out.numel() == 0) return;
  if (execute_any(kind, in, out, dims, forward)) return;
  // FFTW plans any strides for out-of-place transforms as far as we know; should a geometry be
  // refused, dense copies are.
  const bool in_place = in.is_same(out);
  Tensor in_c = in.contiguous();
  Tensor out_c = in_place ? in_c : detail::empty_generic(out.sizes(), out.dtype(), out.device());
  BRASA_CHECK_TYPED(InternalError, execute_any(kind, in_c, out_c, dims, forward),
                    "fft: FFTW could not plan a transform of sizes ", in.sizes(), " over dims ",
                    dims);
  if (!out_c.is_same(out)) out.copy_(out_c);
}

}  // namespace brasa::cpu
