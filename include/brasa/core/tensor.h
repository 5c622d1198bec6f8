#pragma once
// Tensor: a refcounted handle to a TensorImpl. Methods mirror libtorch's at::Tensor; each is
// defined next to its op in src/ops/<family>/ (one op, one place).

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "brasa/core/generator.h"
#include "brasa/core/optional_array_ref.h"
#include "brasa/core/scalar.h"
#include "brasa/core/tensor_impl.h"
#include "brasa/core/tensor_options.h"

namespace brasa {

class Tensor;
class DeprecatedTypeProperties;  // libtorch's, in compat (Note [Deprecated tensor API])
namespace autograd {
class Node;
}
using TensorList = ArrayRef<Tensor>;
template <typename T, size_t N>
class TensorAccessor;
namespace indexing {
struct TensorIndex;
}
// brasa/ops/indexing_ops.h's at::index_put_, declared here for the method that forwards to it.
BRASA_API const Tensor& index_put_(const Tensor& self,
                                   const std::vector<std::optional<Tensor>>& indices,
                                   const Tensor& values, bool accumulate);

class BRASA_API Tensor {
 public:
  Tensor() = default;
  explicit Tensor(IntrusivePtr<TensorImpl> impl) : impl_(std::move(impl)) {}
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  ~Tensor() = default;

  // Note [Assignment to a temporary]
  // `t = other` on a named tensor rebinds t (no data is copied), as in libtorch; assigning to a
  // temporary writes into its elements, as libtorch's operator= overloads on rvalues do:
  // `x[0] = y` copies y into row 0 of x (broadcasting, copy_) and `x[0][1] = 5` fills (fill_).
  // Without the rvalue overloads both would rebind a temporary that is then destroyed: the
  // program would compile and silently leave x unchanged.
  Tensor& operator=(const Tensor& other) & = default;
  Tensor& operator=(Tensor&& other) & noexcept = default;
  Tensor& operator=(const Tensor& src) && {
    copy_(src);
    return *this;
  }
  Tensor& operator=(Tensor&& src) && {
    copy_(src);
    return *this;
  }
  Tensor& operator=(const Scalar& value) && {
    fill_(value);
    return *this;
  }

  // ---- identity and metadata ----
  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* unsafeGetTensorImpl() const { return impl_.get(); }
  const IntrusivePtr<TensorImpl>& impl() const { return impl_; }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }
  uint32_t use_count() const { return impl_.use_count(); }
  void reset() { impl_.reset(); }

  int64_t dim() const { return impl_->dim(); }
  int64_t ndimension() const { return dim(); }
  IntArrayRef sizes() const { return impl_->sizes(); }
  IntArrayRef strides() const { return impl_->strides(); }
  /// size(d) with d wrapped (negative counts from the end); throws IndexError when out of range.
  int64_t size(int64_t d) const;
  int64_t stride(int64_t d) const;
  int64_t numel() const { return impl_->numel(); }
  int64_t storage_offset() const { return impl_->storage_offset(); }
  ScalarType scalar_type() const { return impl_->dtype(); }
  ScalarType dtype() const { return impl_->dtype(); }
  size_t element_size() const { return impl_->itemsize(); }
  size_t itemsize() const { return impl_->itemsize(); }
  size_t nbytes() const { return impl_->itemsize() * numel(); }
  Device device() const { return impl_->device(); }
  /// The device's index; -1 for a CPU tensor (libtorch's get_device).
  int64_t get_device() const { return device().is_cpu() ? -1 : device().index(); }
  /// brasa's tensors are all strided (dense).
  Layout layout() const { return kStrided; }
  TensorOptions options() const { return TensorOptions(dtype()).device(device()); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  bool is_meta() const { return device().is_meta(); }
  bool is_privateuseone() const { return device().is_privateuseone(); }
  bool is_contiguous(MemoryFormat = MemoryFormat::Contiguous) const {
    return impl_->is_contiguous();
  }
  bool is_floating_point() const { return is_floating_type(dtype()); }
  bool is_signed() const { return is_signed_type(dtype()); }
  bool is_complex() const { return is_complex_type(dtype()); }
  /// brasa has no lazy conjugate bit: conj() of a complex tensor is computed at once.
  bool is_conj() const { return false; }
  bool is_view() const { return static_cast<bool>(impl_->view_base()); }
  Tensor _base() const { return Tensor(impl_->view_base()); }
  DispatchKeySet key_set() const { return impl_->key_set(); }
  uint32_t _version() const { return impl_->version(); }
  const Storage& storage() const { return impl_->storage(); }
  std::string toString() const;

  // ---- raw data ----
  /// Untyped pointer to element [0, ..., 0] (null for meta tensors); a fused-eager result that is
  /// still pending is computed first (Note [Raw reads of pending tensors]).
  void* data_ptr() const;
  void* mutable_data_ptr() const { return data_ptr(); }
  const void* const_data_ptr() const { return data_ptr(); }
  /// Typed pointer; throws TypeError when T is not the tensor's dtype.
  template <typename T>
  T* data_ptr() const;
  template <typename T>
  T* mutable_data_ptr() const {
    return data_ptr<T>();
  }
  template <typename T>
  const T* const_data_ptr() const {
    return data_ptr<T>();
  }
  /// libtorch 1.13's deprecated spelling of data_ptr<T>() (Note [Deprecated tensor API]).
  template <typename T>
  [[deprecated("Tensor.data<T>() is deprecated. Please use Tensor.data_ptr<T>() instead.")]] T*
  data() const {
    return data_ptr<T>();
  }
  /// libtorch 1.13's deprecated type(): the (backend, dtype) pair, `t.type().scalarType()`. Defined
  /// by the compat header ATen/core/DeprecatedTypeProperties.h, which <torch/torch.h> includes.
  [[deprecated(
      "Tensor.type() is deprecated. Use Tensor.options(), Tensor.scalar_type() or Tensor.device() "
      "instead.")]] DeprecatedTypeProperties&
  type() const;
  /// The single element as a Scalar; throws ValueError unless numel() == 1.
  Scalar item() const;
  template <typename T>
  T item() const {
    return item().to<T>();
  }
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const&;
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;

  // ---- autograd (defined in src/autograd/tensor_autograd.cpp) ----
  bool requires_grad() const;
  const Tensor& set_requires_grad(bool r) const;
  const Tensor& requires_grad_(bool r = true) const { return set_requires_grad(r); }
  /// The accumulated gradient (undefined until a backward reaches this leaf).
  const Tensor& grad() const;
  /// The gradient slot itself, for optimizers: `p.mutable_grad() = ...`, `.reset()`.
  Tensor& mutable_grad() const;
  /// The node that created this tensor (null for leaves); name() is e.g. "MulBackward0".
  const std::shared_ptr<autograd::Node>& grad_fn() const;
  bool is_leaf() const;
  int64_t output_nr() const;
  /// Backpropagates from this tensor; `gradient` may be omitted for one-element tensors. Given
  /// `inputs` (libtorch's optional TensorList: `{x, y}`, a vector), only those tensors' .grad
  /// accumulate; an empty list is a ValueError.
  void backward(const Tensor& gradient = {}, std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false, OptionalArrayRef<Tensor> inputs = std::nullopt) const;
  /// A tensor sharing this one's data with no history.
  Tensor detach() const;
  /// Removes this tensor's history in place.
  const Tensor& detach_() const;
  /// Makes a non-leaf keep its .grad after backward.
  void retain_grad() const;
  bool retains_grad() const;
  /// Registers hook(grad) -> Tensor (replacement, or undefined to keep) or hook(grad) -> void.
  template <typename F>
  unsigned register_hook(F&& hook) const {
    if constexpr (std::is_void_v<std::invoke_result_t<F&, Tensor>>) {
      return register_hook_impl([h = std::forward<F>(hook)](const Tensor& g) mutable {
        h(g);
        return Tensor();
      });
    } else {
      return register_hook_impl(std::function<Tensor(const Tensor&)>(std::forward<F>(hook)));
    }
  }
  void remove_hook(unsigned id) const;
  /// Calls hook(leaf) after each accumulation into this leaf's .grad.
  void register_post_accumulate_grad_hook(std::function<void(const Tensor&)> hook) const;
  /// A detached alias of the data (`x.data()` in libtorch).
  Tensor data() const { return detach(); }
  Tensor variable_data() const { return detach(); }
  /// Makes this tensor use `new_data`'s storage and geometry, keeping its autograd state.
  void set_data(const Tensor& new_data) const;
  /// Whether this is an inference tensor (created in InferenceMode; Note [Inference tensors]).
  bool is_inference() const { return impl_->is_inference(); }

  // ---- conversion and copies ----
  Tensor contiguous(MemoryFormat = MemoryFormat::Contiguous) const;
  Tensor clone(std::optional<MemoryFormat> = std::nullopt) const;
  /// Copies src into this tensor, broadcasting src and converting its dtype.
  const Tensor& copy_(const Tensor& src, bool non_blocking = false) const;
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, bool non_blocking = false, bool copy = false) const;
  /// `t.to(kCPU)`: without this, a DeviceType converts equally well to Device and to
  /// TensorOptions (libtorch resolves it through its TensorOptions overload; same result).
  Tensor to(DeviceType device, bool non_blocking = false, bool copy = false) const {
    return to(Device(device), non_blocking, copy);
  }
  Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;
  Tensor to(const Tensor& other, bool non_blocking = false, bool copy = false) const;
  Tensor cpu() const { return to(Device(kCPU)); }
  /// libtorch's cuda(): brasa has no CUDA backend, so this throws NotImplementedError naming it.
  Tensor cuda() const;
  Tensor toType(ScalarType t) const { return to(t); }
  Tensor type_as(const Tensor& o) const { return to(o.dtype()); }
  Tensor float_() const = delete;
  const Tensor& fill_(const Scalar& value) const;
  const Tensor& fill_(const Tensor& value) const;
  const Tensor& zero_() const;
  const Tensor& resize_(IntArrayRef sizes) const;
  const Tensor& resize_as_(const Tensor& other) const { return resize_(other.sizes()); }
  /// This tensor becomes a view of `source`'s storage with its sizes, strides and offset
  /// (NotImplementedError when this tensor requires grad, Note [In-place views and autograd]).
  const Tensor& set_(const Tensor& source) const;
  /// Whether this tensor views `other`'s storage with the same offset, sizes and strides.
  bool is_set_to(const Tensor& other) const;
  /// A detached alias (libtorch's tensor_data(): same storage, no autograd history).
  Tensor tensor_data() const { return detach(); }
  bool is_distributed() const { return false; }

  // ---- views ----
  Tensor view(IntArrayRef sizes) const;
  /// The same bytes read as `dtype` (Note [Dtype views]); not differentiable.
  Tensor view(ScalarType dtype) const;
  Tensor view_as(const Tensor& o) const { return view(o.sizes()); }
  Tensor reshape(IntArrayRef sizes) const;
  Tensor reshape_as(const Tensor& o) const { return reshape(o.sizes()); }
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor unflatten(int64_t dim, IntArrayRef sizes) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor squeeze(IntArrayRef dims) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor swapaxes(int64_t dim0, int64_t dim1) const { return transpose(dim0, dim1); }
  Tensor swapdims(int64_t dim0, int64_t dim1) const { return transpose(dim0, dim1); }
  Tensor t() const;
  Tensor permute(IntArrayRef dims) const;
  Tensor movedim(IntArrayRef source, IntArrayRef destination) const;
  Tensor movedim(int64_t source, int64_t destination) const;
  Tensor expand(IntArrayRef sizes, bool implicit = false) const;
  Tensor expand_as(const Tensor& o) const { return expand(o.sizes()); }
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  /// narrow() copied into a new contiguous tensor.
  Tensor narrow_copy(int64_t dim, int64_t start, int64_t length) const {
    return narrow(dim, start, length).clone(MemoryFormat::Contiguous);
  }
  Tensor select(int64_t dim, int64_t index) const;
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor as_strided(IntArrayRef sizes, IntArrayRef strides,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  // In place: this tensor takes the view's geometry (NotImplementedError when it requires grad,
  // Note [In-place views and autograd]).
  const Tensor& squeeze_() const;
  const Tensor& squeeze_(int64_t dim) const;
  const Tensor& unsqueeze_(int64_t dim) const;
  const Tensor& transpose_(int64_t dim0, int64_t dim1) const;
  const Tensor& t_() const;
  const Tensor& swapaxes_(int64_t axis0, int64_t axis1) const;
  const Tensor& swapdims_(int64_t dim0, int64_t dim1) const;
  const Tensor& as_strided_(IntArrayRef sizes, IntArrayRef strides,
                            std::optional<int64_t> storage_offset = std::nullopt) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> split_with_sizes(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  Tensor diagonal(int64_t offset = 0, int64_t dim1 = 0, int64_t dim2 = 1) const;
  /// The sliding windows of `size` elements every `step` along `dimension`, as a new last dim
  /// (a view; brasa/ops/unfold.h).
  Tensor unfold(int64_t dimension, int64_t size, int64_t step) const;
  Tensor alias() const;
  /// Each matrix transposed: transpose(-2, -1) of a tensor of at least 2 dims.
  Tensor mT() const;
  /// Each matrix's conjugate transpose, mT().conj(); matrix_H() is the same.
  Tensor mH() const;
  Tensor matrix_H() const { return mH(); }
  /// All dims reversed (NumPy's `.T`).
  Tensor numpy_T() const;
  /// Whether a lazy negation is pending: never, brasa negates eagerly.
  bool is_neg() const { return false; }

  // ---- new tensors like this one: its dtype and device unless `options` says otherwise ----
  Tensor new_empty(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_empty_strided(IntArrayRef size, IntArrayRef stride,
                           const TensorOptions& options = {}) const;
  Tensor new_zeros(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_ones(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_full(IntArrayRef size, const Scalar& fill_value,
                  const TensorOptions& options = {}) const;
  /// Writes fill_value on the main diagonal (all dims equal, or a 2-D tensor; `wrap` restarts the
  /// diagonal every cols + 1 rows of a tall matrix).
  const Tensor& fill_diagonal_(const Scalar& fill_value, bool wrap = false) const;
  /// The sum down to `size`, which must expand to this tensor's sizes (expand's reverse).
  Tensor sum_to_size(IntArrayRef size) const;

  // ---- libtorch indexing: t.index({Slice(1, 3), None, Ellipsis, 0}) ----
  Tensor index(ArrayRef<indexing::TensorIndex> indices) const;
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  const Tensor& index_put_(ArrayRef<indexing::TensorIndex> indices, const Tensor& value) const;
  const Tensor& index_put_(ArrayRef<indexing::TensorIndex> indices, const Scalar& value) const;
  const Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices,
                           const Tensor& value) const;
  const Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices,
                           const Scalar& value) const;
  /// at::index_put_ as a method: self[indices] = values, += with accumulate.
  const Tensor& index_put_(const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                           bool accumulate) const {
    return brasa::index_put_(*this, indices, values, accumulate);
  }
  Tensor operator[](int64_t index) const { return select(0, index); }

  // ---- random in-place ----
  const Tensor& uniform_(double from = 0, double to = 1,
                         std::optional<Generator> gen = std::nullopt) const;
  const Tensor& normal_(double mean = 0, double std = 1,
                        std::optional<Generator> gen = std::nullopt) const;
  const Tensor& bernoulli_(double p = 0.5, std::optional<Generator> gen = std::nullopt) const;
  const Tensor& random_(int64_t from, int64_t to,
                        std::optional<Generator> gen = std::nullopt) const;
  /// random_(0, to).
  const Tensor& random_(int64_t to, std::optional<Generator> gen = std::nullopt) const {
    return random_(0, to, std::move(gen));
  }
  /// libtorch's random_(from, nullopt) draws from [from, the dtype's maximum]; brasa has no such
  /// form, and without this line the call would silently mean random_(0, from).
  const Tensor& random_(int64_t from, std::nullopt_t,
                        std::optional<Generator> gen = std::nullopt) const = delete;
  const Tensor& exponential_(double lambd = 1, std::optional<Generator> gen = std::nullopt) const;
  const Tensor& geometric_(double p, std::optional<Generator> gen = std::nullopt) const;
  /// Cauchy(median, sigma) draws: median + sigma * tan(pi * (u - 1/2)), u uniform on [0, 1).
  const Tensor& cauchy_(double median = 0, double sigma = 1,
                        std::optional<Generator> gen = std::nullopt) const;
  /// exp of normal(mean, std) draws.
  const Tensor& log_normal_(double mean = 1, double std = 2,
                            std::optional<Generator> gen = std::nullopt) const;
  Tensor multinomial(int64_t num_samples, bool replacement = false,
                     std::optional<Generator> gen = std::nullopt) const;

  // ---- binary arithmetic (Tensor and Scalar forms; `_` is in place) ----
#define BRASA_BINARY_METHODS(name)                  \
  Tensor name(const Tensor& other) const;           \
  Tensor name(const Scalar& other) const;           \
  const Tensor& name##_(const Tensor& other) const; \
  const Tensor& name##_(const Scalar& other) const;
  Tensor add(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor add(const Scalar& other, const Scalar& alpha = 1) const;
  const Tensor& add_(const Tensor& other, const Scalar& alpha = 1) const;
  const Tensor& add_(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor sub(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor sub(const Scalar& other, const Scalar& alpha = 1) const;
  const Tensor& sub_(const Tensor& other, const Scalar& alpha = 1) const;
  const Tensor& sub_(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor div(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor div(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  const Tensor& div_(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  const Tensor& div_(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  BRASA_BINARY_METHODS(mul)
  BRASA_BINARY_METHODS(div)
  BRASA_BINARY_METHODS(pow)
  BRASA_BINARY_METHODS(remainder)
  BRASA_BINARY_METHODS(fmod)
  BRASA_BINARY_METHODS(floor_divide)
  BRASA_BINARY_METHODS(atan2)
  BRASA_BINARY_METHODS(hypot)
  BRASA_BINARY_METHODS(maximum)
  BRASA_BINARY_METHODS(minimum)
  BRASA_BINARY_METHODS(eq)
  BRASA_BINARY_METHODS(ne)
  BRASA_BINARY_METHODS(lt)
  BRASA_BINARY_METHODS(le)
  BRASA_BINARY_METHODS(gt)
  BRASA_BINARY_METHODS(ge)
  BRASA_BINARY_METHODS(logical_and)
  BRASA_BINARY_METHODS(logical_or)
  BRASA_BINARY_METHODS(logical_xor)
  BRASA_BINARY_METHODS(bitwise_and)
  BRASA_BINARY_METHODS(bitwise_or)
  BRASA_BINARY_METHODS(bitwise_xor)
#undef BRASA_BINARY_METHODS
  Tensor true_divide(const Tensor& other) const { return div(other); }
  Tensor lerp(const Tensor& end, const Scalar& weight) const;
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  const Tensor& lerp_(const Tensor& end, const Scalar& weight) const;
  const Tensor& lerp_(const Tensor& end, const Tensor& weight) const;
  Tensor clamp(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const;
  Tensor clamp(const std::optional<Tensor>& min, const std::optional<Tensor>& max = {}) const;
  const Tensor& clamp_(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const;
  const Tensor& clamp_(const std::optional<Tensor>& min,
                       const std::optional<Tensor>& max = {}) const;
  Tensor clamp_min(const Scalar& min) const;
  Tensor clamp_max(const Scalar& max) const;
  const Tensor& clamp_min_(const Scalar& min) const;
  const Tensor& clamp_max_(const Scalar& max) const;
  Tensor clip(std::optional<Scalar> min, std::optional<Scalar> max = std::nullopt) const {
    return clamp(min, max);
  }
  Tensor masked_fill(const Tensor& mask, const Scalar& value) const;
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const;
  const Tensor& masked_fill_(const Tensor& mask, const Scalar& value) const;
  const Tensor& masked_fill_(const Tensor& mask, const Tensor& value) const;
  Tensor where(const Tensor& condition, const Tensor& other) const;
  Tensor nan_to_num(std::optional<double> nan = std::nullopt,
                    std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt) const;
  const Tensor& nan_to_num_(std::optional<double> nan = std::nullopt,
                            std::optional<double> posinf = std::nullopt,
                            std::optional<double> neginf = std::nullopt) const;

  // ---- unary ----
#define BRASA_UNARY_METHODS(name) \
  Tensor name() const;            \
  const Tensor& name##_() const;
  // ---- complex (src/ops/complex/) ----
  /// The real part: a Float/Double view of a complex tensor's storage, the tensor itself if real.
  Tensor real() const;
  /// The imaginary part (a view); throws TypeError for a real tensor.
  Tensor imag() const;
  /// The complex conjugate (a new tensor for a complex one; the tensor itself if real).
  Tensor conj() const;
  Tensor conj_physical() const;
  const Tensor& conj_physical_() const;
  Tensor resolve_conj() const { return *this; }
  /// The argument (phase) in radians: atan2(imag, real); 0 or pi for real tensors.
  Tensor angle() const;
  BRASA_UNARY_METHODS(neg)
  BRASA_UNARY_METHODS(negative)
  BRASA_UNARY_METHODS(reciprocal)
  BRASA_UNARY_METHODS(abs)
  BRASA_UNARY_METHODS(absolute)
  BRASA_UNARY_METHODS(sign)
  BRASA_UNARY_METHODS(exp)
  BRASA_UNARY_METHODS(exp2)
  BRASA_UNARY_METHODS(expm1)
  BRASA_UNARY_METHODS(log)
  BRASA_UNARY_METHODS(log2)
  BRASA_UNARY_METHODS(log10)
  BRASA_UNARY_METHODS(log1p)
  BRASA_UNARY_METHODS(sqrt)
  BRASA_UNARY_METHODS(rsqrt)
  BRASA_UNARY_METHODS(square)
  BRASA_UNARY_METHODS(sin)
  BRASA_UNARY_METHODS(cos)
  BRASA_UNARY_METHODS(tan)
  BRASA_UNARY_METHODS(asin)
  BRASA_UNARY_METHODS(acos)
  BRASA_UNARY_METHODS(atan)
  BRASA_UNARY_METHODS(sinh)
  BRASA_UNARY_METHODS(cosh)
  BRASA_UNARY_METHODS(tanh)
  BRASA_UNARY_METHODS(sigmoid)
  BRASA_UNARY_METHODS(erf)
  BRASA_UNARY_METHODS(erfinv)
  BRASA_UNARY_METHODS(floor)
  BRASA_UNARY_METHODS(ceil)
  BRASA_UNARY_METHODS(round)
  BRASA_UNARY_METHODS(trunc)
  BRASA_UNARY_METHODS(frac)
  BRASA_UNARY_METHODS(logical_not)
  BRASA_UNARY_METHODS(bitwise_not)
  BRASA_UNARY_METHODS(relu)
#undef BRASA_UNARY_METHODS
  /// The n-th derivative of digamma (polygamma(n, *this)).
  Tensor polygamma(int64_t n) const;
  const Tensor& polygamma_(int64_t n) const;
  Tensor isnan() const;
  Tensor isinf() const;
  Tensor isfinite() const;

  // ---- reductions ----
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false,
             std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(IntArrayRef dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(int64_t dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor amax(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor amin(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor max() const;
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  Tensor max(const Tensor& other) const { return maximum(other); }
  Tensor min() const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor min(const Tensor& other) const { return minimum(other); }
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor var(bool unbiased = true) const;
  /// var(1) is the variance over dim 1, as in libtorch (Note [int dim of var and std]).
  Tensor var(int dim) const { return var(IntArrayRef(dim)); }
  Tensor var(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor var(OptionalIntArrayRef dim, std::optional<int64_t> correction,
             bool keepdim = false) const;
  Tensor std(bool unbiased = true) const;
  Tensor std(int dim) const { return std(IntArrayRef(dim)); }
  Tensor std(IntArrayRef dim, bool unbiased = true, bool keepdim = false) const;
  Tensor std(OptionalIntArrayRef dim, std::optional<int64_t> correction,
             bool keepdim = false) const;
  Tensor norm(const Scalar& p = 2) const;
  Tensor norm(std::optional<Scalar> p, IntArrayRef dim, bool keepdim = false) const;
  Tensor logsumexp(IntArrayRef dim, bool keepdim = false) const;
  Tensor all() const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor any() const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  Tensor count_nonzero(std::optional<int64_t> dim = std::nullopt) const;
  Tensor count_nonzero(IntArrayRef dim) const;
  Tensor cumsum(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor cumprod(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor log_softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  std::tuple<Tensor, Tensor> sort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> sort(std::optional<bool> stable, int64_t dim = -1,
                                  bool descending = false) const;
  Tensor argsort(int64_t dim = -1, bool descending = false) const;
  std::tuple<Tensor, Tensor> topk(int64_t k, int64_t dim = -1, bool largest = true,
                                  bool sorted = true) const;
  bool equal(const Tensor& other) const;
  bool allclose(const Tensor& other, double rtol = 1e-5, double atol = 1e-8,
                bool equal_nan = false) const;

  // ---- linear algebra (src/ops/linalg) ----
  Tensor mm(const Tensor& mat2) const;
  Tensor bmm(const Tensor& mat2) const;
  Tensor matmul(const Tensor& other) const;
  Tensor mv(const Tensor& vec) const;
  Tensor dot(const Tensor& other) const;
  Tensor outer(const Tensor& vec2) const;
  Tensor addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
               const Scalar& alpha = 1) const;
  Tensor addmv(const Tensor& mat, const Tensor& vec, const Scalar& beta = 1,
               const Scalar& alpha = 1) const;
  Tensor baddbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
                 const Scalar& alpha = 1) const;

  // ---- operators ----
  Tensor operator-() const { return neg(); }
  Tensor operator~() const { return bitwise_not(); }
  const Tensor& operator+=(const Tensor& o) const { return add_(o); }
  const Tensor& operator+=(const Scalar& o) const { return add_(o); }
  const Tensor& operator-=(const Tensor& o) const { return sub_(o); }
  const Tensor& operator-=(const Scalar& o) const { return sub_(o); }
  const Tensor& operator*=(const Tensor& o) const { return mul_(o); }
  const Tensor& operator*=(const Scalar& o) const { return mul_(o); }
  const Tensor& operator/=(const Tensor& o) const { return div_(o); }
  const Tensor& operator/=(const Scalar& o) const { return div_(o); }

  void print() const;

  // ---- indexing and shaping ops (include/brasa/ops/indexing_ops.h) ----
  Tensor flip(IntArrayRef dims) const;
  Tensor roll(IntArrayRef shifts, IntArrayRef dims = {}) const;
  Tensor tril(int64_t diagonal = 0) const;
  Tensor triu(int64_t diagonal = 0) const;
  const Tensor& tril_(int64_t diagonal = 0) const;
  const Tensor& triu_(int64_t diagonal = 0) const;
  Tensor repeat(IntArrayRef repeats) const;
  Tensor tile(IntArrayRef reps) const;
  Tensor gather(int64_t dim, const Tensor& index, bool sparse_grad = false) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Scalar& value) const;
  const Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src) const;
  const Tensor& scatter_(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  const Tensor& scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  Tensor index_add(int64_t dim, const Tensor& index, const Tensor& source,
                   const Scalar& alpha = 1) const;
  const Tensor& index_add_(int64_t dim, const Tensor& index, const Tensor& source,
                           const Scalar& alpha = 1) const;
  Tensor index_copy(int64_t dim, const Tensor& index, const Tensor& source) const;
  const Tensor& index_copy_(int64_t dim, const Tensor& index, const Tensor& source) const;
  Tensor index_fill(int64_t dim, const Tensor& index, const Scalar& value) const;
  const Tensor& index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor take(const Tensor& index) const;
  Tensor masked_select(const Tensor& mask) const;
  Tensor nonzero() const;

  // Note [Forwarded Tensor methods]
  // libtorch's Tensor has a method for most ops (t.xlogy(y) is at::xlogy(t, y)). Those that only
  // forward to the op's free function are generated from the ops' declarations by
  // scripts/gen_tensor_methods.py (ctest check_tensor_methods keeps them in step) and defined in
  // src/ops/tensor_methods_forwarded.cpp; an in-place NAME_ without a free function of its own
  // computes NAME and writes the result back (TypeError when its dtype can't be cast to this
  // tensor's). Methods with more to them are written above.
  // ---- BEGIN forwarded methods (generated by scripts/gen_tensor_methods.py) ----
  Tensor acosh() const;
  const Tensor& acosh_() const;
  Tensor addbmm(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
                const Scalar& alpha = 1) const;
  const Tensor& addbmm_(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
                        const Scalar& alpha = 1) const;
  Tensor addcdiv(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) const;
  const Tensor& addcdiv_(const Tensor& tensor1, const Tensor& tensor2,
                         const Scalar& value = 1) const;
  Tensor addcmul(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) const;
  const Tensor& addcmul_(const Tensor& tensor1, const Tensor& tensor2,
                         const Scalar& value = 1) const;
  const Tensor& addmm_(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
                       const Scalar& alpha = 1) const;
  const Tensor& addmv_(const Tensor& mat, const Tensor& vec, const Scalar& beta = 1,
                       const Scalar& alpha = 1) const;
  Tensor addr(const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1,
              const Scalar& alpha = 1) const;
  const Tensor& addr_(const Tensor& vec1, const Tensor& vec2, const Scalar& beta = 1,
                      const Scalar& alpha = 1) const;
  Tensor adjoint() const;
  std::tuple<Tensor, Tensor> aminmax(std::optional<int64_t> dim = std::nullopt,
                                     bool keepdim = false) const;
  Tensor arccos() const;
  const Tensor& arccos_() const;
  Tensor arccosh() const;
  const Tensor& arccosh_() const;
  Tensor arcsin() const;
  const Tensor& arcsin_() const;
  Tensor arcsinh() const;
  const Tensor& arcsinh_() const;
  Tensor arctan() const;
  Tensor arctan2(const Tensor& other) const;
  const Tensor& arctan2_(const Tensor& other) const;
  const Tensor& arctan_() const;
  Tensor arctanh() const;
  const Tensor& arctanh_() const;
  Tensor argwhere() const;
  Tensor as_strided_scatter(const Tensor& src, IntArrayRef size, IntArrayRef stride,
                            std::optional<int64_t> storage_offset = std::nullopt) const;
  Tensor asinh() const;
  const Tensor& asinh_() const;
  Tensor atanh() const;
  const Tensor& atanh_() const;
  const Tensor& baddbmm_(const Tensor& batch1, const Tensor& batch2, const Scalar& beta = 1,
                         const Scalar& alpha = 1) const;
  Tensor bernoulli(std::optional<Generator> generator = std::nullopt) const;
  Tensor bincount(const std::optional<Tensor>& weights = {}, int64_t minlength = 0) const;
  Tensor bitwise_left_shift(const Tensor& other) const;
  Tensor bitwise_left_shift(const Scalar& other) const;
  const Tensor& bitwise_left_shift_(const Tensor& other) const;
  const Tensor& bitwise_left_shift_(const Scalar& other) const;
  Tensor bitwise_right_shift(const Tensor& other) const;
  Tensor bitwise_right_shift(const Scalar& other) const;
  const Tensor& bitwise_right_shift_(const Tensor& other) const;
  const Tensor& bitwise_right_shift_(const Scalar& other) const;
  Tensor broadcast_to(IntArrayRef sizes) const;
  Tensor cholesky(bool upper = false) const;
  Tensor cholesky_inverse(bool upper = false) const;
  Tensor cholesky_solve(const Tensor& input2, bool upper = false) const;
  const Tensor& clip_(const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max = std::nullopt) const;
  Tensor copysign(const Tensor& other) const;
  Tensor copysign(const Scalar& other) const;
  const Tensor& copysign_(const Tensor& other) const;
  const Tensor& copysign_(const Scalar& other) const;
  Tensor corrcoef() const;
  Tensor cov(int64_t correction = 1, const std::optional<Tensor>& fweights = {},
             const std::optional<Tensor>& aweights = {}) const;
  Tensor cross(const Tensor& other, std::optional<int64_t> dim = std::nullopt) const;
  std::tuple<Tensor, Tensor> cummax(int64_t dim) const;
  std::tuple<Tensor, Tensor> cummin(int64_t dim) const;
  const Tensor& cumprod_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  const Tensor& cumsum_(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor deg2rad() const;
  const Tensor& deg2rad_() const;
  Tensor det() const;
  Tensor diag(int64_t diagonal = 0) const;
  Tensor diag_embed(int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1) const;
  Tensor diagflat(int64_t offset = 0) const;
  Tensor diagonal_scatter(const Tensor& src, int64_t offset = 0, int64_t dim1 = 0,
                          int64_t dim2 = 1) const;
  Tensor diff(int64_t n = 1, int64_t dim = -1, const std::optional<Tensor>& prepend = {},
              const std::optional<Tensor>& append = {}) const;
  Tensor digamma() const;
  const Tensor& digamma_() const;
  Tensor dist(const Tensor& other, const Scalar& p = 2) const;
  Tensor divide(const Tensor& other) const;
  const Tensor& divide_(const Tensor& other) const;
  std::vector<Tensor> dsplit(int64_t sections) const;
  std::vector<Tensor> dsplit(IntArrayRef indices) const;
  Tensor erfc() const;
  const Tensor& erfc_() const;
  Tensor fix() const;
  const Tensor& fix_() const;
  Tensor fliplr() const;
  Tensor flipud() const;
  Tensor float_power(const Tensor& other) const;
  Tensor float_power(const Scalar& other) const;
  const Tensor& float_power_(const Tensor& other) const;
  const Tensor& float_power_(const Scalar& other) const;
  Tensor fmax(const Tensor& other) const;
  Tensor fmin(const Tensor& other) const;
  std::tuple<Tensor, Tensor> frexp() const;
  Tensor gcd(const Tensor& other) const;
  const Tensor& gcd_(const Tensor& other) const;
  std::tuple<Tensor, Tensor> geqrf() const;
  Tensor ger(const Tensor& vec2) const;
  Tensor greater(const Tensor& other) const;
  const Tensor& greater_(const Tensor& other) const;
  Tensor greater_equal(const Tensor& other) const;
  Tensor greater_equal(const Scalar& other) const;
  const Tensor& greater_equal_(const Tensor& other) const;
  const Tensor& greater_equal_(const Scalar& other) const;
  Tensor hardshrink(const Scalar& lambd = 0.5) const;
  Tensor heaviside(const Tensor& values) const;
  const Tensor& heaviside_(const Tensor& values) const;
  Tensor histc(int64_t bins = 100, const Scalar& min = 0, const Scalar& max = 0) const;
  std::tuple<Tensor, Tensor> histogram(const Tensor& bins, const std::optional<Tensor>& weight = {},
                                       bool density = false) const;
  std::tuple<Tensor, Tensor> histogram(int64_t bins = 100,
                                       OptionalArrayRef<double> range = std::nullopt,
                                       const std::optional<Tensor>& weight = {},
                                       bool density = false) const;
  std::vector<Tensor> hsplit(int64_t sections) const;
  std::vector<Tensor> hsplit(IntArrayRef indices) const;
  Tensor i0() const;
  const Tensor& i0_() const;
  Tensor igamma(const Tensor& other) const;
  const Tensor& igamma_(const Tensor& other) const;
  Tensor igammac(const Tensor& other) const;
  const Tensor& igammac_(const Tensor& other) const;
  Tensor index_put(const std::vector<std::optional<Tensor>>& indices, const Tensor& values,
                   bool accumulate = false) const;
  Tensor index_reduce(int64_t dim, const Tensor& index, const Tensor& source,
                      std::string_view reduce, bool include_self = true) const;
  const Tensor& index_reduce_(int64_t dim, const Tensor& index, const Tensor& source,
                              std::string_view reduce, bool include_self = true) const;
  Tensor inner(const Tensor& other) const;
  Tensor inverse() const;
  bool is_nonzero() const;
  bool is_pinned(std::optional<Device> device = std::nullopt) const;
  bool is_same_size(const Tensor& other) const;
  Tensor isclose(const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
                 bool equal_nan = false) const;
  Tensor isneginf() const;
  Tensor isposinf() const;
  Tensor isreal() const;
  Tensor istft(int64_t n_fft, std::optional<int64_t> hop_length = std::nullopt,
               std::optional<int64_t> win_length = std::nullopt,
               const std::optional<Tensor>& window = {}, bool center = true,
               bool normalized = false, std::optional<bool> onesided = std::nullopt,
               std::optional<int64_t> length = std::nullopt, bool return_complex = false) const;
  Tensor kron(const Tensor& other) const;
  std::tuple<Tensor, Tensor> kthvalue(int64_t k, int64_t dim = -1, bool keepdim = false) const;
  Tensor lcm(const Tensor& other) const;
  const Tensor& lcm_(const Tensor& other) const;
  Tensor ldexp(const Tensor& other) const;
  const Tensor& ldexp_(const Tensor& other) const;
  Tensor less(const Tensor& other) const;
  const Tensor& less_(const Tensor& other) const;
  Tensor less_equal(const Tensor& other) const;
  Tensor less_equal(const Scalar& other) const;
  const Tensor& less_equal_(const Tensor& other) const;
  const Tensor& less_equal_(const Scalar& other) const;
  Tensor lgamma() const;
  const Tensor& lgamma_() const;
  Tensor logaddexp(const Tensor& other) const;
  Tensor logaddexp2(const Tensor& other) const;
  Tensor logcumsumexp(int64_t dim) const;
  Tensor logdet() const;
  Tensor logit(std::optional<double> eps = std::nullopt) const;
  const Tensor& logit_(std::optional<double> eps = std::nullopt) const;
  Tensor lu_solve(const Tensor& LU_data, const Tensor& LU_pivots) const;
  Tensor masked_scatter(const Tensor& mask, const Tensor& source) const;
  const Tensor& masked_scatter_(const Tensor& mask, const Tensor& source) const;
  Tensor matrix_exp() const;
  Tensor matrix_power(int64_t n) const;
  Tensor median() const;
  std::tuple<Tensor, Tensor> median(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> mode(int64_t dim = -1, bool keepdim = false) const;
  Tensor moveaxis(IntArrayRef source, IntArrayRef destination) const;
  Tensor moveaxis(int64_t source, int64_t destination) const;
  Tensor msort() const;
  Tensor multiply(const Tensor& other) const;
  const Tensor& multiply_(const Tensor& other) const;
  Tensor mvlgamma(int64_t p) const;
  const Tensor& mvlgamma_(int64_t p) const;
  Tensor nanmean(OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                 std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor nanmedian() const;
  std::tuple<Tensor, Tensor> nanmedian(int64_t dim, bool keepdim = false) const;
  Tensor nanquantile(const Tensor& q, std::optional<int64_t> dim = std::nullopt,
                     bool keepdim = false, std::string_view interpolation = "linear") const;
  Tensor nanquantile(double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                     std::string_view interpolation = "linear") const;
  Tensor nansum(OptionalIntArrayRef dim = std::nullopt, bool keepdim = false,
                std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor nextafter(const Tensor& other) const;
  const Tensor& nextafter_(const Tensor& other) const;
  std::vector<Tensor> nonzero_numpy() const;
  Tensor not_equal(const Tensor& other) const;
  Tensor not_equal(const Scalar& other) const;
  const Tensor& not_equal_(const Tensor& other) const;
  const Tensor& not_equal_(const Scalar& other) const;
  Tensor orgqr(const Tensor& input2) const;
  Tensor ormqr(const Tensor& input2, const Tensor& input3, bool left = true,
               bool transpose = false) const;
  Tensor pin_memory(std::optional<Device> device = std::nullopt) const;
  Tensor pinverse(double rcond = 1e-15) const;
  Tensor positive() const;
  Tensor prelu(const Tensor& weight) const;
  Tensor put(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  const Tensor& put_(const Tensor& index, const Tensor& source, bool accumulate = false) const;
  std::tuple<Tensor, Tensor> qr(bool some = true) const;
  Tensor quantile(const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                  std::string_view interpolation = "linear") const;
  Tensor quantile(double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                  std::string_view interpolation = "linear") const;
  Tensor rad2deg() const;
  const Tensor& rad2deg_() const;
  Tensor ravel() const;
  Tensor renorm(const Scalar& p, int64_t dim, const Scalar& maxnorm) const;
  const Tensor& renorm_(const Scalar& p, int64_t dim, const Scalar& maxnorm) const;
  Tensor repeat_interleave(const Tensor& repeats, std::optional<int64_t> dim = std::nullopt) const;
  Tensor repeat_interleave(int64_t repeats, std::optional<int64_t> dim = std::nullopt) const;
  Tensor resolve_neg() const;
  Tensor rot90(int64_t k = 1, IntArrayRef dims = {0, 1}) const;
  Tensor scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src,
                        std::string_view reduce, bool include_self = true) const;
  const Tensor& scatter_reduce_(int64_t dim, const Tensor& index, const Tensor& src,
                                std::string_view reduce, bool include_self = true) const;
  Tensor select_scatter(const Tensor& src, int64_t dim, int64_t index) const;
  Tensor sgn() const;
  const Tensor& sgn_() const;
  Tensor signbit() const;
  Tensor sinc() const;
  const Tensor& sinc_() const;
  Tensor slice_scatter(const Tensor& src, int64_t dim = 0,
                       std::optional<int64_t> start = std::nullopt,
                       std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  std::tuple<Tensor, Tensor> slogdet() const;
  Tensor stft(int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
              const std::optional<Tensor>& window, bool normalized,
              std::optional<bool> onesided = std::nullopt,
              std::optional<bool> return_complex = std::nullopt) const;
  Tensor stft(int64_t n_fft, std::optional<int64_t> hop_length = std::nullopt,
              std::optional<int64_t> win_length = std::nullopt,
              const std::optional<Tensor>& window = {}, bool center = true,
              std::string_view pad_mode = "reflect", bool normalized = false,
              std::optional<bool> onesided = std::nullopt,
              std::optional<bool> return_complex = std::nullopt) const;
  Tensor subtract(const Tensor& other, const Scalar& alpha = 1) const;
  const Tensor& subtract_(const Tensor& other, const Scalar& alpha = 1) const;
  std::tuple<Tensor, Tensor, Tensor> svd(bool some = true, bool compute_uv = true) const;
  std::tuple<Tensor, Tensor> symeig(bool eigenvectors = false, bool upper = true) const;
  Tensor take_along_dim(const Tensor& indices, std::optional<int64_t> dim = std::nullopt) const;
  std::vector<Tensor> tensor_split(int64_t sections, int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(IntArrayRef indices, int64_t dim = 0) const;
  std::vector<Tensor> tensor_split(const Tensor& tensor_indices_or_sections, int64_t dim = 0) const;
  Tensor trace() const;
  std::tuple<Tensor, Tensor> triangular_solve(const Tensor& A, bool upper = true,
                                              bool transpose = false,
                                              bool unitriangular = false) const;
  const Tensor& true_divide_(const Tensor& other) const;
  std::vector<Tensor> unsafe_chunk(int64_t chunks, int64_t dim = 0) const;
  std::vector<Tensor> unsafe_split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> unsafe_split_with_sizes(IntArrayRef split_sizes, int64_t dim = 0) const;
  Tensor vdot(const Tensor& other) const;
  std::vector<Tensor> vsplit(int64_t sections) const;
  std::vector<Tensor> vsplit(IntArrayRef indices) const;
  Tensor xlogy(const Tensor& other) const;
  Tensor xlogy(const Scalar& other) const;
  const Tensor& xlogy_(const Tensor& other) const;
  const Tensor& xlogy_(const Scalar& other) const;
  // ---- END forwarded methods ----

 private:
  unsigned register_hook_impl(std::function<Tensor(const Tensor&)> hook) const;
  IntrusivePtr<TensorImpl> impl_;
};

#define BRASA_BINARY_OPERATOR(op, name)                                             \
  inline Tensor operator op(const Tensor& a, const Tensor& b) { return a.name(b); } \
  inline Tensor operator op(const Tensor& a, const Scalar& b) { return a.name(b); } \
  BRASA_API Tensor operator op(const Scalar& a, const Tensor& b);
BRASA_BINARY_OPERATOR(+, add)
BRASA_BINARY_OPERATOR(-, sub)
BRASA_BINARY_OPERATOR(*, mul)
BRASA_BINARY_OPERATOR(/, div)
BRASA_BINARY_OPERATOR(%, remainder)
BRASA_BINARY_OPERATOR(&, bitwise_and)
BRASA_BINARY_OPERATOR(|, bitwise_or)
BRASA_BINARY_OPERATOR(^, bitwise_xor)
BRASA_BINARY_OPERATOR(==, eq)
BRASA_BINARY_OPERATOR(!=, ne)
BRASA_BINARY_OPERATOR(<, lt)
BRASA_BINARY_OPERATOR(<=, le)
BRASA_BINARY_OPERATOR(>, gt)
BRASA_BINARY_OPERATOR(>=, ge)
#undef BRASA_BINARY_OPERATOR

/// Prints in libtorch's format (values, then "[ CPUFloatType{2,3} ]").
BRASA_API std::ostream& operator<<(std::ostream& os, const Tensor& t);

}  // namespace brasa
