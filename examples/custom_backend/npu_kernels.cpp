// The npu's kernels, registered in libtorch's spelling: empty, copy, add, mul, mm, relu and sum.
// Everything else runs through brasa's CPU fallback. The elementwise kernels are the npu's own
// loops (float, double, int32 and int64 results; other dtypes go to the CPU fallback). mm and sum
// run the host's kernels (oneDNN GEMM, brasa's reductions) on the npu's memory, the way an
// emulated device uses the host's math library; so their results equal the CPU's bit for bit.
#include <ATen/native/CPUFallback.h>
#include <torch/library.h>

#include <cstring>
#include <stdexcept>
#include <vector>

#include "brasa/core/empty.h"
#include "npu_device.h"

namespace npu {
namespace {

using at::Tensor;

// The host address of a tensor's first element (inside the npu's private mapping).
char* host_ptr(const Tensor& t) {
  if (t.numel() == 0) return nullptr;
  Arena* a = arena_of(t.data_ptr());
  if (!a)
    throw std::runtime_error("npu: tensor data is not npu memory (device " + t.device().str() +
                             ")");
  int64_t lo = 0, hi = 0;
  for (int64_t d = 0; d < t.dim(); ++d) {
    const int64_t span = (t.size(d) - 1) * t.stride(d);
    (span < 0 ? lo : hi) += span;
  }
  char* first = static_cast<char*>(a->host(t.data_ptr(), 1));
  a->host(static_cast<char*>(t.data_ptr()) + lo * t.itemsize(),
          static_cast<size_t>(hi - lo + 1) * t.itemsize());  // bounds check of the whole extent
  return first;
}

// A CPU tensor over the same bytes (the host's view of npu memory, for the host's kernels).
Tensor host_view(const Tensor& t) {
  if (t.is_cpu()) return t;
  if (t.numel() == 0) return at::empty(t.sizes(), at::TensorOptions(t.scalar_type()));
  return at::from_blob(host_ptr(t), t.sizes(), t.strides(), at::TensorOptions(t.scalar_type()));
}

// A new npu tensor holding the values of a CPU tensor.
Tensor to_npu(const Tensor& cpu, at::Device device) {
  Tensor src = cpu.contiguous();
  Tensor out = at::empty(src.sizes(), at::TensorOptions(src.scalar_type()).device(device));
  if (src.numel()) std::memcpy(host_ptr(out), src.data_ptr(), src.nbytes());
  return out;
}

// Runs brasa's op through the CPU fallback (the cases these kernels leave to it).
Tensor cpu_fallback(const char* op_name, brasa::Stack stack) {
  brasa::backend::cpu_fallback(*brasa::find_op(op_name), stack);
  return stack[0].tensor();
}

bool own_dtype(at::ScalarType t) {
  return t == at::kFloat || t == at::kDouble || t == at::kInt || t == at::kLong;
}

std::vector<int64_t> broadcast(at::IntArrayRef a, at::IntArrayRef b) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    TORCH_CHECK(x == y || x == 1 || y == 1, "npu: shapes ", a, " and ", b, " do not broadcast");
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// Reads element `i` (in row-major order of `sizes`) of a strided operand converted to T. A CPU
// operand is a 0-d scalar tensor, read directly.
template <typename T>
struct Operand {
  const char* base;
  at::ScalarType dtype;
  std::vector<int64_t> strides;  // in elements, broadcast to the output (0 where expanded)

  Operand(const Tensor& t, at::IntArrayRef out_sizes) : dtype(t.scalar_type()) {
    base = t.is_cpu() ? static_cast<const char*>(t.data_ptr()) : host_ptr(t);
    strides.assign(out_sizes.size(), 0);
    const size_t lead = out_sizes.size() - t.dim();
    for (int64_t d = 0; d < t.dim(); ++d) strides[lead + d] = t.size(d) == 1 ? 0 : t.stride(d);
  }
  T load(int64_t offset) const {
    switch (dtype) {
      case at::kFloat: return static_cast<T>(reinterpret_cast<const float*>(base)[offset]);
      case at::kDouble: return static_cast<T>(reinterpret_cast<const double*>(base)[offset]);
      case at::kInt: return static_cast<T>(reinterpret_cast<const int32_t*>(base)[offset]);
      case at::kLong: return static_cast<T>(reinterpret_cast<const int64_t*>(base)[offset]);
      case at::kBool: return static_cast<T>(reinterpret_cast<const bool*>(base)[offset]);
      default: throw std::logic_error("npu: unexpected operand dtype");
    }
  }
};

// The element pointer of `t` as T when it is a dense operand of out's shape (or one element) of
// dtype T; null otherwise.
template <typename T>
const T* dense(const Tensor& t, const Tensor& out, bool& scalar) {
  if (t.scalar_type() != out.scalar_type()) return nullptr;
  scalar = t.numel() == 1;
  if (!scalar && !(t.is_contiguous() && t.sizes().vec() == out.sizes().vec())) return nullptr;
  return reinterpret_cast<const T*>(t.is_cpu() ? static_cast<const char*>(t.data_ptr())
                                               : host_ptr(t));
}

// out[i] = f(a[i], b[i]) over out's shape (out may be strided; a and b broadcast to it).
template <typename T, typename F>
void binary_loop(const Tensor& out, const Tensor& a, const Tensor& b, F f) {
  const int64_t n = out.numel();
  if (n == 0) return;
  if (out.is_contiguous()) {  // the common case: dense operands or a scalar, one flat loop
    bool sa = false, sb = false;
    const T* x = dense<T>(a, out, sa);
    const T* y = x ? dense<T>(b, out, sb) : nullptr;
    if (x && y) {
      T* o = reinterpret_cast<T*>(host_ptr(out));
      if (sb) {
        const T yv = *y;
        for (int64_t i = 0; i < n; ++i) o[i] = f(x[sa ? 0 : i], yv);
      } else if (sa) {
        const T xv = *x;
        for (int64_t i = 0; i < n; ++i) o[i] = f(xv, y[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
      }
      return;
    }
  }
  Operand<T> x(a, out.sizes()), y(b, out.sizes());
  T* o = reinterpret_cast<T*>(host_ptr(out));
  const int64_t dims = out.dim();
  std::vector<int64_t> index(dims, 0);
  int64_t oo = 0, xo = 0, yo = 0;
  for (int64_t i = 0; i < n; ++i) {
    o[oo] = f(x.load(xo), y.load(yo));
    for (int64_t d = dims - 1; d >= 0; --d) {  // odometer step
      if (++index[d] < out.size(d)) {
        oo += out.stride(d), xo += x.strides[d], yo += y.strides[d];
        break;
      }
      oo -= (out.size(d) - 1) * out.stride(d);
      xo -= (out.size(d) - 1) * x.strides[d];
      yo -= (out.size(d) - 1) * y.strides[d];
      index[d] = 0;
    }
  }
}

template <typename F>
void binary(const Tensor& out, const Tensor& a, const Tensor& b, F f) {
  switch (out.scalar_type()) {
    case at::kFloat: return binary_loop<float>(out, a, b, f);
    case at::kDouble: return binary_loop<double>(out, a, b, f);
    case at::kInt: return binary_loop<int32_t>(out, a, b, f);
    case at::kLong: return binary_loop<int64_t>(out, a, b, f);
    default: throw std::logic_error("npu: unexpected result dtype");
  }
}

// True when `x` shares out's bytes as another view (an elementwise loop would read what it wrote).
bool partial_overlap(const Tensor& out, const Tensor& x) {
  return !x.is_cpu() && x.numel() && out.numel() && x.storage().get() == out.storage().get() &&
         !(x.data_ptr() == out.data_ptr() && x.sizes().vec() == out.sizes().vec() &&
           x.strides().vec() == out.strides().vec());
}

// Whether the npu's own loop handles (self op other) into a result of dtype `dt`.
bool own_binary(const Tensor& a, const Tensor& b, at::ScalarType dt) {
  auto ok = [](const Tensor& t) {
    return own_dtype(t.scalar_type()) || t.scalar_type() == at::kBool;
  };
  return own_dtype(dt) && ok(a) && ok(b);
}

struct Add {
  template <typename T>
  T operator()(T a, T b) const {
    return a + b;
  }
};
struct Mul {
  template <typename T>
  T operator()(T a, T b) const {
    return a * b;
  }
};

template <typename F>
Tensor binary_functional(const char* op, const Tensor& a, const Tensor& b, const at::Scalar& alpha,
                         F f) {
  const at::ScalarType dt = at::result_type(a, b);
  if (!own_binary(a, b, dt) || !alpha.equal(1)) return cpu_fallback(op, {a, b, alpha, Tensor()});
  Tensor out = at::empty(broadcast(a.sizes(), b.sizes()),
                         at::TensorOptions(dt).device(a.is_cpu() ? b.device() : a.device()));
  binary(out, a, b, f);
  return out;
}

template <typename F>
Tensor& binary_into(const char* op, Tensor& out, const Tensor& a, const Tensor& b,
                    const at::Scalar& alpha, F f) {
  const at::ScalarType dt = at::result_type(a, b);
  const auto shape = broadcast(a.sizes(), b.sizes());
  const bool same_shape = out.sizes().vec() == shape;
  if (!own_binary(a, b, dt) || !alpha.equal(1) || out.scalar_type() != dt || !same_shape ||
      partial_overlap(out, a) || partial_overlap(out, b)) {
    cpu_fallback(op, {a, b, alpha, out});
    return out;
  }
  binary(out, a, b, f);
  return out;
}

Tensor npu_add(const Tensor& a, const Tensor& b, const at::Scalar& alpha) {
  return binary_functional("add", a, b, alpha, Add{});
}
Tensor& npu_add_(Tensor& self, const Tensor& b, const at::Scalar& alpha) {
  return binary_into("add", self, self, b, alpha, Add{});
}
Tensor& npu_add_out(const Tensor& a, const Tensor& b, const at::Scalar& alpha, Tensor& out) {
  return binary_into("add", out, a, b, alpha, Add{});
}
Tensor npu_mul(const Tensor& a, const Tensor& b) {
  return binary_functional("mul", a, b, 1, Mul{});
}
Tensor& npu_mul_(Tensor& self, const Tensor& b) {
  return binary_into("mul", self, self, b, 1, Mul{});
}
Tensor& npu_mul_out(const Tensor& a, const Tensor& b, Tensor& out) {
  return binary_into("mul", out, a, b, 1, Mul{});
}

// A Python-number operand as brasa passes it: a wrapped 0-d CPU tensor.
Tensor wrapped(const at::Scalar& s) {
  Tensor t = at::scalar_tensor(s, at::TensorOptions(s.type()));
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}
Tensor add_scalar_op(const Tensor& a, const at::Scalar& b, const at::Scalar& alpha) {
  return npu_add(a, wrapped(b), alpha);
}
Tensor& add_scalar_(Tensor& self, const at::Scalar& b, const at::Scalar& alpha) {
  return npu_add_(self, wrapped(b), alpha);
}
Tensor mul_scalar(const Tensor& a, const at::Scalar& b) { return npu_mul(a, wrapped(b)); }
Tensor& mul_scalar_(Tensor& self, const at::Scalar& b) { return npu_mul_(self, wrapped(b)); }

// relu: max(x, 0) elementwise (NaN stays NaN, as on the CPU).
template <typename T>
void relu_loop(const Tensor& out, const Tensor& in) {
  binary_loop<T>(out, in, in, [](T a, T) { return a > T(0) || a != a ? a : T(0); });
}
Tensor& relu_into(Tensor& out, const Tensor& in) {
  switch (out.scalar_type()) {
    case at::kFloat: relu_loop<float>(out, in); break;
    case at::kDouble: relu_loop<double>(out, in); break;
    case at::kInt: relu_loop<int32_t>(out, in); break;
    case at::kLong: relu_loop<int64_t>(out, in); break;
    default: throw std::logic_error("npu: relu dtype");
  }
  return out;
}
Tensor npu_relu(const Tensor& self) {
  if (!own_dtype(self.scalar_type())) return cpu_fallback("relu", {self, Tensor()});
  Tensor out = at::empty(self.sizes(), self.options());
  return relu_into(out, self);
}
Tensor& npu_relu_(Tensor& self) {
  if (!own_dtype(self.scalar_type())) {
    cpu_fallback("relu", {self, self});
    return self;
  }
  return relu_into(self, self);
}

// empty: npu memory from the registered allocator, on the given (or current) npu.
Tensor npu_empty(c10::SymIntArrayRef size, std::optional<at::ScalarType> dtype,
                 std::optional<at::Layout> layout, std::optional<at::Device> device,
                 std::optional<bool> pin_memory, std::optional<at::MemoryFormat> format) {
  TORCH_CHECK(!layout || *layout == at::kStrided, "npu: empty: only strided tensors");
  TORCH_CHECK(!pin_memory || !*pin_memory, "npu: empty: pinned memory is for CPU tensors");
  TORCH_CHECK(!format || *format != at::MemoryFormat::Preserve,
              "npu: empty: memory format Preserve needs an input tensor");
  at::Device where = device.value_or(at::Device(at::kPrivateUse1));
  return brasa::detail::empty_generic(size, dtype.value_or(at::get_default_dtype()), where);
}
Tensor npu_empty_strided(c10::SymIntArrayRef size, c10::SymIntArrayRef stride,
                         std::optional<at::ScalarType> dtype, std::optional<at::Layout> layout,
                         std::optional<at::Device> device, std::optional<bool> pin_memory) {
  TORCH_CHECK(!layout || *layout == at::kStrided, "npu: empty_strided: only strided tensors");
  TORCH_CHECK(!pin_memory || !*pin_memory, "npu: empty_strided: pinned memory is for CPU tensors");
  at::Device where = device.value_or(at::Device(at::kPrivateUse1));
  return brasa::detail::empty_strided_generic(size, stride, dtype.value_or(at::get_default_dtype()),
                                              where);
}

// Element copy between two strided views of one dtype (either side npu or CPU memory).
void strided_copy(const Tensor& dst, const Tensor& src) {
  const int64_t n = dst.numel(), size = dst.itemsize(), dims = dst.dim();
  if (n == 0) return;
  char* d = dst.is_cpu() ? static_cast<char*>(dst.data_ptr()) : host_ptr(dst);
  const char* s = src.is_cpu() ? static_cast<const char*>(src.data_ptr()) : host_ptr(src);
  if (dst.is_contiguous() && src.is_contiguous()) {
    std::memmove(d, s, n * size);
    return;
  }
  std::vector<int64_t> index(dims, 0);
  int64_t doff = 0, soff = 0;
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(d + doff * size, s + soff * size, size);
    for (int64_t k = dims - 1; k >= 0; --k) {
      if (++index[k] < dst.size(k)) {
        doff += dst.stride(k), soff += src.stride(k);
        break;
      }
      doff -= (dst.size(k) - 1) * dst.stride(k);
      soff -= (dst.size(k) - 1) * src.stride(k);
      index[k] = 0;
    }
  }
}

// copy: CPU <-> npu and npu <-> npu, with broadcasting and dtype conversion (done on the host).
Tensor copy_from(const Tensor& self, const Tensor& dst, bool /*non_blocking*/) {
  TORCH_CHECK(self.dim() <= dst.dim(), "npu: copy_: source of shape ", self.sizes(),
              " does not broadcast to ", dst.sizes());
  Tensor src = self.expand(dst.sizes());
  if (src.is_same(dst) || dst.numel() == 0) return dst;
  if (!dst.is_cpu() && !src.is_cpu() && src.device() != dst.device()) {
    dst.copy_(src.cpu());  // between two npus: through the host
    return dst;
  }
  if (src.scalar_type() == dst.scalar_type()) {
    strided_copy(dst, src);
    return dst;
  }
  if (dst.is_cpu()) {  // npu -> CPU with a cast: stage in the source dtype, cast on the host
    Tensor staged = at::empty(src.sizes(), at::TensorOptions(src.scalar_type()));
    strided_copy(staged, src);
    dst.copy_(staged);
  } else {  // -> npu with a cast: cast on the host, then copy the bytes
    Tensor staged = (src.is_cpu() ? src : src.cpu()).to(dst.scalar_type()).contiguous();
    strided_copy(dst, staged);
  }
  return dst;
}

// mm and sum: the host's kernels on the npu's bytes.
Tensor npu_mm(const Tensor& a, const Tensor& b) {
  TORCH_CHECK(a.scalar_type() == b.scalar_type(),
              "npu: mm: expected both inputs of one dtype, got ", a.scalar_type(), " and ",
              b.scalar_type());
  return to_npu(at::mm(host_view(a), host_view(b)), a.device());
}
Tensor npu_sum(const Tensor& self, std::optional<at::ScalarType> dtype) {
  return to_npu(dtype ? host_view(self).sum(*dtype) : host_view(self).sum(), self.device());
}
Tensor npu_sum_dim(const Tensor& self, at::OptionalIntArrayRef dim, bool keepdim,
                   std::optional<at::ScalarType> dtype) {
  std::vector<int64_t> dims = dim ? dim->vec() : std::vector<int64_t>{};
  return to_npu(at::sum(host_view(self), dims, keepdim, dtype), self.device());
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", TORCH_FN(npu_empty));
  m.impl("empty_strided", TORCH_FN(npu_empty_strided));
  m.impl("_copy_from", TORCH_FN(copy_from));
  m.impl("add.Tensor", TORCH_FN(npu_add));
  m.impl("add_.Tensor", TORCH_FN(npu_add_));
  m.impl("add.out", TORCH_FN(npu_add_out));
  m.impl("add.Scalar", TORCH_FN(add_scalar_op));
  m.impl("add_.Scalar", TORCH_FN(add_scalar_));
  m.impl("mul.Tensor", TORCH_FN(npu_mul));
  m.impl("mul_.Tensor", TORCH_FN(npu_mul_));
  m.impl("mul.out", TORCH_FN(npu_mul_out));
  m.impl("mul.Scalar", TORCH_FN(mul_scalar));
  m.impl("mul_.Scalar", TORCH_FN(mul_scalar_));
  m.impl("relu", TORCH_FN(npu_relu));
  m.impl("relu_", TORCH_FN(npu_relu_));
  m.impl("mm", TORCH_FN(npu_mm));
  m.impl("sum", TORCH_FN(npu_sum));
  m.impl("sum.dim_IntList", TORCH_FN(npu_sum_dim));
}

}  // namespace npu
