// lstsq: least squares min ||A X - B|| with LAPACK's gels, gelsy (the default), gelsd or gelss.
// Outputs follow PyTorch 1.13: rank for every driver but gels, singular values for gelsd/gelss,
// residuals (squared norms of A X - B's columns) when m > n, the driver is not gelsy and every
// matrix has full rank; the outputs a driver does not give are empty.
#include <limits>

#include "backends/cpu/tensor_iterator.h"
#include "brasa/ops/linalg_decomp.h"
#include "ops/linalg/decomp_ops.h"
#include "ops/linalg/lapack_batch.h"

namespace brasa::ops {
namespace {

using namespace linalg_detail;  // NOLINT

using LstsqResult = std::vector<Tensor>;

struct LstsqShapes {
  bool vector = false;
  DimVector batch, a_shape, b_shape;
  int64_t m = 0, n = 0, k = 0;
};

LstsqShapes lstsq_shapes(const char* op, const Tensor& A, const Tensor& B) {
  check_matrix(op, A);
  BRASA_CHECK(B.defined() && B.dim() >= 1, op, ": B must have at least 1 dimension");
  BRASA_CHECK_TYPE(A.dtype() == B.dtype(), op, ": A and B must have the same dtype, got ",
                   A.dtype(), " and ", B.dtype());
  BRASA_CHECK(A.dim() >= B.dim() && A.dim() - B.dim() <= 1, op, ": B must have as many dims as A ",
              A.sizes(), " or one fewer (a batch of vectors), got B ", B.sizes());
  LstsqShapes s;
  s.vector = B.dim() == A.dim() - 1;  // Note [Vector right-hand sides]
  Tensor Bm = s.vector ? B.unsqueeze(-1) : B;
  s.m = A.size(-2);
  s.n = A.size(-1);
  s.k = Bm.size(-1);
  BRASA_CHECK(Bm.dim() >= 2 && Bm.size(-2) == s.m, op, ": A ", A.sizes(), " and B ", B.sizes(),
              " must have the same number of rows");
  s.batch = cpu::broadcast_shapes(batch_sizes(A), batch_sizes(Bm), "linalg.lstsq");
  s.a_shape = s.batch;
  s.a_shape.push_back(s.m);
  s.a_shape.push_back(s.n);
  s.b_shape = s.batch;
  s.b_shape.push_back(s.m);
  s.b_shape.push_back(s.k);
  return s;
}

template <bool kRun>
LstsqResult lstsq_kernel(const Tensor& A, const Tensor& B, std::optional<double> rcond,
                         std::optional<std::string> driver_arg) {
  const char* op = "linalg.lstsq";
  const std::string driver = driver_arg.value_or("gelsy");
  BRASA_CHECK(driver == "gels" || driver == "gelsy" || driver == "gelsd" || driver == "gelss", op,
              ": driver must be one of gels, gelsy, gelsd, gelss, got '", driver, "'");
  const LstsqShapes s = lstsq_shapes(op, A, B);
  const int64_t m = s.m, n = s.n, k = s.k, mn = std::min(m, n), rows = std::max(m, n);
  const int64_t count = product(s.batch);
  const bool has_rank = driver != "gels", has_sv = driver == "gelsd" || driver == "gelss";
  const auto opts = A.dtype();
  DimVector x_shape = s.batch, sv_shape = s.batch, buf_shape = s.batch;
  x_shape.push_back(n);
  x_shape.push_back(k);
  sv_shape.push_back(mn);
  buf_shape.push_back(rows);
  buf_shape.push_back(k);
  Tensor rank = has_rank ? detail::empty_generic(s.batch, kLong, A.device())
                         : detail::empty_generic({0}, kLong, A.device());
  Tensor sv = has_sv ? detail::empty_generic(sv_shape, opts, A.device())
                     : detail::empty_generic({0}, opts, A.device());
  auto present = [&](const Tensor& X) { return s.vector ? X.squeeze(-1) : X; };
  const bool maybe_residuals = m > n && driver != "gelsy";
  if constexpr (!kRun) {
    // Residuals depend on the ranks found; the shape rule assumes full rank.
    DimVector res_shape = s.batch;
    if (!s.vector) res_shape.push_back(k);
    Tensor res = detail::empty_generic(maybe_residuals ? IntArrayRef(res_shape) : IntArrayRef({0}),
                                       opts, A.device());
    return {present(empty_column_major(x_shape, opts, A.device())), res, rank, sv};
  } else {
    Tensor a = column_major_copy(A.expand(s.a_shape));
    Tensor buf = empty_column_major(buf_shape, opts, A.device());
    if (rows > m) buf.narrow(-2, m, rows - m).zero_();
    buf.narrow(-2, 0, m).copy_((s.vector ? B.unsqueeze(-1) : B).expand(s.b_shape));
    std::vector<int> infos(count), ranks(count, static_cast<int>(n));
    if (count > 0 && mn > 0 && k > 0) {
      dispatch_floating(A.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T cut = rcond ? static_cast<T>(*rcond)
                            : std::numeric_limits<T>::epsilon() * static_cast<T>(rows);
        T* a_data = a.data_ptr<T>();
        T* b_data = buf.data_ptr<T>();
        T* s_data = has_sv ? sv.data_ptr<T>() : nullptr;
        for_each_matrix(count, m * n * (mn + k), [&](int64_t b) {
          T* ab = a_data + b * m * n;
          T* bb = b_data + b * rows * k;
          T* sb = has_sv ? s_data + b * mn : nullptr;
          int r = static_cast<int>(mn);
          if (driver == "gels")
            infos[b] =
                cpu::lapack::gels<T>(as_int(m), as_int(n), as_int(k), ab, ld(m), bb, ld(rows));
          else if (driver == "gelsy")
            infos[b] = cpu::lapack::gelsy<T>(as_int(m), as_int(n), as_int(k), ab, ld(m), bb,
                                             ld(rows), cut, &r);
          else if (driver == "gelsd")
            infos[b] = cpu::lapack::gelsd<T>(as_int(m), as_int(n), as_int(k), ab, ld(m), bb,
                                             ld(rows), sb, cut, &r);
          else
            infos[b] = cpu::lapack::gelss<T>(as_int(m), as_int(n), as_int(k), ab, ld(m), bb,
                                             ld(rows), sb, cut, &r);
          ranks[b] = r;
        });
      });
    } else if (has_sv && sv.numel() > 0) {
      sv.zero_();
    }
    auto [b, info] = first_failure(infos);
    if (info < 0) throw_bad_argument(op, driver.c_str(), info);
    BRASA_CHECK_LINALG(info == 0, op, ": ", which_matrix(A.expand(s.a_shape), b),
                       driver == "gels" ? " does not have full rank; expected a full-rank matrix "
                                          "for driver 'gels' (gelsy, gelsd or gelss accept any)"
                                        : " did not converge in the SVD of driver " + driver);
    if (has_rank) {
      int64_t* r = rank.data_ptr<int64_t>();
      for (int64_t i = 0; i < count; ++i) r[i] = mn == 0 ? 0 : ranks[i];
    }
    bool full_rank = true;
    for (int64_t i = 0; i < count; ++i) full_rank = full_rank && ranks[i] == n;
    Tensor X = empty_column_major(x_shape, opts, A.device());
    X.copy_(buf.narrow(-2, 0, n));
    Tensor res = detail::empty_generic({0}, opts, A.device());
    if (maybe_residuals && full_rank) {
      Tensor tail = buf.narrow(-2, n, m - n);
      res = (tail * tail).sum(IntArrayRef{-2});
      if (s.vector) res = res.squeeze(-1);
    }
    return {present(X), res, rank, sv};
  }
}

}  // namespace

BRASA_DEFINE_OP(linalg_lstsq_op)
BRASA_REGISTER_KERNEL(linalg_lstsq_op, lstsq_kernel<true>, CPU)
BRASA_REGISTER_KERNEL(linalg_lstsq_op, lstsq_kernel<false>, Meta)

}  // namespace brasa::ops

namespace brasa {

std::tuple<Tensor, Tensor, Tensor, Tensor> linalg_lstsq(const Tensor& A, const Tensor& B,
                                                        std::optional<double> rcond,
                                                        std::optional<std::string_view> driver) {
  std::vector<Tensor> r = ops::linalg_lstsq_op().call(
      A, B, rcond, driver ? std::optional<std::string>(std::string(*driver)) : std::nullopt);
  return {r[0], r[1], r[2], r[3]};
}

}  // namespace brasa
