#pragma once
// TensorIterator: the elementwise engine's front half. Given outputs and inputs it broadcasts
// shapes, applies PyTorch's type promotion, allocates or checks outputs, orders dims by stride and
// coalesces them, and then runs a 1-D inner loop over all elements, splitting the work across
// threads.
//
// Note [Iterator dtypes]
// Inputs whose dtype differs from the common dtype are converted first (promote_inputs), so a loop
// sees at most two dtypes: common_dtype() for the inputs and the output dtype (Bool for
// comparisons). An out= tensor of another dtype gets a temporary result that is copied into it by
// finish().

#include <functional>

#include "brasa/core/empty.h"
#include "brasa/core/tensor.h"

namespace brasa::cpu {

/// Inner loop: data[i] points at operand i (outputs first), strides[i] is its byte stride, n
/// elements.
using Loop1d = void (*)(char** data, const int64_t* strides, int64_t n, void* ctx);

class TensorIterator;

/// A tensor that is either borrowed (the caller keeps it alive while the iterator lives) or owned.
/// Borrowing spares the refcount traffic of copying every operand (Note [Small op cost]).
class OperandSlot {
 public:
  const Tensor& get() const { return ptr_ ? *ptr_ : owned_; }
  bool is_borrowed() const { return ptr_ != nullptr; }
  void borrow(const Tensor& t) {
    ptr_ = &t;
    owned_.reset();
  }
  void own(Tensor t) {
    owned_ = std::move(t);
    ptr_ = nullptr;
  }
  void take_from(OperandSlot& o) {
    if (o.ptr_)
      borrow(*o.ptr_);
    else
      own(std::move(o.owned_));
  }

 private:
  const Tensor* ptr_ = nullptr;
  Tensor owned_;
};

class BRASA_API TensorIteratorConfig {
 public:
  explicit TensorIteratorConfig(const char* op_name) : name_(op_name) {}
  /// An output; pass an undefined tensor to have it allocated. Lvalues are borrowed (they must
  /// outlive the iterator), rvalues are kept.
  TensorIteratorConfig& add_output(const Tensor& t);
  TensorIteratorConfig& add_output(Tensor&& t);
  TensorIteratorConfig& add_input(const Tensor& t);
  TensorIteratorConfig& add_input(Tensor&& t);
  /// Inputs are converted to the common dtype (default on).
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v) {
    promote_inputs_ = v;
    return *this;
  }
  /// Integral/bool common dtypes become the default float (true division, sqrt of ints, ...).
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v) {
    int_to_float_ = v;
    return *this;
  }
  /// Fixes the common (input compute) dtype instead of computing it.
  TensorIteratorConfig& common_dtype(ScalarType t) {
    common_dtype_ = t;
    return *this;
  }
  /// Fixes the dtype of allocated outputs (Bool for comparisons); default: the common dtype.
  TensorIteratorConfig& output_dtype(ScalarType t) {
    output_dtype_ = t;
    return *this;
  }
  /// An in-place or out= output must accept the result dtype under can_cast (default on).
  TensorIteratorConfig& check_safe_cast(bool v) {
    safe_cast_ = v;
    return *this;
  }
  /// Defined outputs may be resized when they have 0 elements (default on).
  TensorIteratorConfig& resize_outputs(bool v) {
    resize_outputs_ = v;
    return *this;
  }
  /// Every input must already have this dtype set of the common dtype (no promotion).
  TensorIteratorConfig& check_all_same_dtype(bool v) {
    same_dtype_ = v;
    return *this;
  }
  /// Iterate over this shape instead of the broadcast of the inputs (inputs must broadcast to it).
  TensorIteratorConfig& declare_static_shape(IntArrayRef shape) {
    static_shape_ = shape;
    has_static_shape_ = true;
    return *this;
  }
  TensorIterator build();

 private:
  friend class TensorIterator;

  const char* name_;
  static constexpr int kMaxOperands = 8;
  // Fixed arrays, not vectors: building an iterator must not touch the heap (Note [Small op cost]).
  OperandSlot operands_[kMaxOperands];  // outputs first, then inputs
  int noutputs_ = 0, ninputs_ = 0;
  std::optional<ScalarType> common_dtype_, output_dtype_;
  DimVector static_shape_;
  bool has_static_shape_ = false;
  bool promote_inputs_ = true, int_to_float_ = false, safe_cast_ = true, resize_outputs_ = true,
       same_dtype_ = false;
};

class BRASA_API TensorIterator {
 public:
  explicit TensorIterator(TensorIteratorConfig& config) { build(config); }
  static constexpr int kMaxOperands = 8;
  int ntensors() const { return ntensors_; }
  int noutputs() const { return noutputs_; }
  int ninputs() const { return ntensors() - noutputs_; }
  /// The result (after finish(): the user's out= tensor if one was given).
  const Tensor& output(int i = 0) const { return user_outputs_[i].get(); }
  const Tensor& operand(int i) const { return operands_[i].get(); }
  ScalarType common_dtype() const { return common_dtype_; }
  ScalarType output_dtype(int i = 0) const { return operand(i).dtype(); }
  ScalarType input_dtype(int i = 0) const { return operand(noutputs_ + i).dtype(); }
  int64_t numel() const { return numel_; }
  /// Iteration shape after reordering (dim 0 is the fastest) and coalescing.
  IntArrayRef shape() const { return shape_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  /// Byte strides of operand i in iteration order.
  IntArrayRef strides(int i) const { return strides_[i]; }
  char* data(int i) const { return data_[i]; }
  /// True when every operand is contiguous along the single coalesced dim.
  bool is_contiguous() const;
  /// Whether input i is a 0-d/broadcast scalar (stride 0 everywhere).
  bool is_scalar_input(int i) const;

  /// Runs `loop` over every element, in parallel when numel >= grain_size.
  void for_each(Loop1d loop, void* ctx = nullptr, int64_t grain_size = 32768) const;
  template <typename F>
  void for_each(const F& f, int64_t grain_size = 32768) const {
    for_each([](char** d, const int64_t* s, int64_t n,
                void* c) { (*static_cast<const F*>(c))(d, s, n); },
             const_cast<F*>(&f), grain_size);
  }
  /// Runs `loop` serially over elements [begin, end) in iteration order.
  void serial_for_each(Loop1d loop, void* ctx, int64_t begin, int64_t end) const;
  /// Copies temporaries into out= tensors of another dtype and bumps versions. Call after the loop.
  void finish();

 private:
  friend class TensorIteratorConfig;
  void build(TensorIteratorConfig& config);
  void compute_shape(TensorIteratorConfig& config);
  void compute_types(TensorIteratorConfig& config);
  void allocate_outputs(TensorIteratorConfig& config);
  void reorder_and_coalesce();
  bool try_fast_setup(TensorIteratorConfig& config);

  static constexpr int kMaxOutputs = 2;
  const char* name_ = "";
  int ntensors_ = 0;
  int noutputs_ = 0;
  OperandSlot operands_[kMaxOperands];     // outputs first, then inputs (possibly converted)
  OperandSlot user_outputs_[kMaxOutputs];  // what the caller sees
  bool needs_copy_back_[kMaxOutputs] = {};
  bool user_given_[kMaxOutputs] = {};
  DimVector shape_;  // broadcast shape, later iteration shape
  DimVector perm_;   // iteration dim i is tensor dim perm_[i]
  DimVector strides_[kMaxOperands];
  char* data_[kMaxOperands] = {};
  ScalarType common_dtype_ = ScalarType::Undefined;
  ScalarType out_dtype_ = ScalarType::Undefined;
  Device device_ = Device(kCPU);
  int64_t numel_ = 0;
  bool is_meta_ = false;  // for_each runs no loop over meta operands (they have no data)
};

inline TensorIterator TensorIteratorConfig::build() { return TensorIterator(*this); }

/// The dtype a kernel dispatches on (Note [Capability dtypes] in stub.h).
inline ScalarType kernel_dtype(const TensorIterator& it) { return it.common_dtype(); }

/// Broadcast shape of a and b, or a ValueError naming op and the first mismatching dim.
BRASA_API DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b, const char* op);

}  // namespace brasa::cpu
