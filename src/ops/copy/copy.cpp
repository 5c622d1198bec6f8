// copy_, to(), clone(), contiguous() and fill_.
#include <atomic>

#include "backends/cpu/kernels/copy_kernels.h"
#include "backends/cpu/new_tensor_writes.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "dispatch/node_name.h"
#include "ops/copy/copy_ops.h"
#include "ops/meta.h"

namespace brasa::ops {

BRASA_DEFINE_STUB(copy_stub, CopyKernel);
BRASA_DEFINE_STUB(fill_stub, FillKernel);

BRASA_DEFINE_OP(copy_op)
BRASA_DEFINE_OP(fill_op)

namespace {
// A meta self takes any source (nothing is copied); a meta source has no data to give.
Tensor copy_meta(const Tensor& self, const Tensor& src) {
  BRASA_CHECK(self.defined() && src.defined(), "copy_: got an undefined tensor");
  BRASA_CHECK_NOT_IMPLEMENTED(self.is_meta(),
                              "copy_: cannot copy out of a meta tensor (it has no data)");
  cpu::broadcast_shapes(self.sizes(), src.sizes(), "copy_");
  return self;
}

Tensor copy_kernel(const Tensor& self, const Tensor& src) {
  BRASA_CHECK(self.defined() && src.defined(), "copy_: got an undefined tensor");
  BRASA_CHECK_NOT_IMPLEMENTED(src.device() == self.device() || (src.dim() == 0 && src.is_cpu()),
                              "copy_: no copy from ", src.device(), " to ", self.device(),
                              " is registered");
  if (self.is_same(src)) return self;
  if (src.is_complex() && !self.is_complex()) {
    // PyTorch 1.13 warns once per process (Note [Warn always]) and keeps the real part.
    static std::atomic<bool> warned{false};
    if (warning_due(warned))
      warn("Casting complex values to real discards the imaginary part (copy_)");
  }
  cpu::TensorIterator it = cpu::TensorIteratorConfig("copy_")
                               .add_output(self)
                               .add_input(src)
                               .declare_static_shape(self.sizes())
                               .common_dtype(src.dtype())
                               .output_dtype(self.dtype())
                               .promote_inputs_to_common_dtype(false)
                               .check_safe_cast(false)
                               .resize_outputs(false)
                               .build();
  copy_stub(it);
  it.finish();
  return self;
}

cpu::TensorIterator make_fill_iterator(const Tensor& self, const Scalar& value) {
  detail::check_scalar_fits(value, self.dtype(), "fill_");
  return cpu::TensorIteratorConfig("fill_")
      .add_output(self)
      .declare_static_shape(self.sizes())
      .common_dtype(self.dtype())
      .resize_outputs(false)
      .build();
}

Tensor fill_meta(const Tensor& self, const Scalar& value) {
  return iterator_meta(make_fill_iterator(self, value));
}

Tensor fill_kernel(const Tensor& self, const Scalar& value) {
  cpu::TensorIterator it = make_fill_iterator(self, value);
  fill_stub(it, value);
  it.finish();
  return self;
}
}  // namespace

BRASA_REGISTER_KERNEL(copy_op, copy_kernel, CPU)
BRASA_REGISTER_KERNEL(copy_op, copy_meta, Meta)
BRASA_REGISTER_KERNEL(fill_op, fill_kernel, CPU)
BRASA_REGISTER_KERNEL(fill_op, fill_meta, Meta)

}  // namespace brasa::ops

namespace brasa {

const Tensor& Tensor::copy_(const Tensor& src, bool) const {
  ops::copy_op().call(*this, src);
  return *this;
}
const Tensor& Tensor::fill_(const Scalar& value) const {
  ops::fill_op().call(*this, value);
  return *this;
}
const Tensor& Tensor::fill_(const Tensor& value) const {
  BRASA_CHECK(value.dim() == 0,
              "fill_: only supports a 0-dimensional value tensor, but got one with ", value.dim(),
              " dims");
  return fill_(value.item());
}
const Tensor& Tensor::zero_() const { return fill_(0); }

Tensor Tensor::to(const TensorOptions& options, bool, bool copy) const {
  // As libtorch: the result's requires_grad follows the graph, an option cannot set it.
  BRASA_CHECK(!options.requires_grad(), "to: Operators taking TensorOptions cannot take a ",
              "TensorOptions with options.requires_grad set as true. This isn't implemented yet.");
  ScalarType dt = options.has_dtype() ? options.dtype() : dtype();
  Device dev = options.has_device() ? options.device() : device();
  if (!copy && dt == dtype() && dev == device()) return *this;
  Tensor out =
      empty_strided(sizes(), detail::dense_strides_like(*this), TensorOptions(dt).device(dev));
  cpu::NewTensorWrites new_tensor;             // Note [Version of new tensors]
  autograd::NodeName node("ToCopyBackward0");  // Note [Overload node names]
  if (dev == device() || dev.is_meta()) {
    if (!dev.is_meta()) out.copy_(*this);
    return out;
  }
  BRASA_CHECK_NOT_IMPLEMENTED(device().is_cpu() || dev.is_cpu() || device().type() == dev.type(),
                              "to: no copy from ", device(), " to ", dev);
  out.copy_(*this);
  return out;
}
Tensor Tensor::to(ScalarType dt, bool nb, bool copy) const {
  return to(TensorOptions(dt), nb, copy);
}
Tensor Tensor::to(Device d, ScalarType dt, bool nb, bool copy) const {
  return to(TensorOptions(dt).device(d), nb, copy);
}
Tensor Tensor::to(Device d, bool nb, bool copy) const { return to(TensorOptions(d), nb, copy); }
Tensor Tensor::to(const Tensor& o, bool nb, bool copy) const { return to(o.options(), nb, copy); }
Tensor Tensor::cuda() const {
  // As torch::cuda::is_available(): brasa is always built without a CUDA backend.
  BRASA_THROW(NotImplementedError, "cuda: brasa has no CUDA backend (as libtorch built without ",
              "CUDA: torch::cuda::is_available() is false), so a tensor (sizes ", sizes(),
              ", dtype ", dtype(), ") cannot move to a CUDA device; keep it on the CPU");
}

Tensor Tensor::contiguous(MemoryFormat) const {
  if (is_contiguous()) return *this;
  return clone(MemoryFormat::Contiguous);
}
Tensor Tensor::clone(std::optional<MemoryFormat> format) const {
  BRASA_CHECK(defined(), "clone: called on an undefined tensor");
  bool contiguous = is_contiguous() || (format && *format == MemoryFormat::Contiguous);
  Tensor out = contiguous ? empty(sizes(), options())
                          : empty_strided(sizes(), detail::dense_strides_like(*this), options());
  cpu::NewTensorWrites new_tensor;            // Note [Version of new tensors]
  autograd::NodeName node("CloneBackward0");  // Note [Overload node names]
  if (!is_meta()) out.copy_(*this);
  return out;
}

}  // namespace brasa
