// unfold(dimension, size, step): the sliding-window view, and unfold_backward, which adds each
// window's gradient back where the window looked.
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/dispatcher.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/unfold.h"
#include "brasa/ops/view.h"
#include "ops/view/view_ops.h"

namespace brasa::ops {

BRASA_DEFINE_OP(unfold_op)

namespace {

// Windows start every `step` elements of dim d: the window dim keeps d's place with stride
// step * stride(d), the new last dim walks one window with stride(d). A 0-d tensor acts as one
// element (libtorch's rule), so its only view is [size] with size <= 1.
Tensor unfold_kernel(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  const int64_t d = detail::wrap_dim(dimension, self.dim(), "unfold");
  const int64_t length = self.dim() == 0 ? 1 : self.size(d);
  BRASA_CHECK(size <= length, "unfold: maximum size for tensor at dimension ", d, " is ", length,
              " but size is ", size);
  BRASA_CHECK(size >= 0, "unfold: size is ", size, " but must be >= 0");
  BRASA_CHECK(step > 0, "unfold: step is ", step, " but must be > 0");
  DimVector sizes(self.sizes()), strides(self.strides());
  const int64_t element_stride = self.dim() == 0 ? 1 : strides[d];
  if (self.dim() > 0) {
    sizes[d] = (length - size) / step + 1;
    strides[d] = step * element_stride;
  }
  sizes.push_back(size);
  strides.push_back(element_stride);
  return detail::make_view(self, sizes, strides, self.storage_offset());
}

}  // namespace

BRASA_REGISTER_KERNEL(unfold_op, unfold_kernel, CPU, Meta, PrivateUse1)

}  // namespace brasa::ops

namespace brasa {

// Element k of window w is input element w * step + k along dim: the window and element dims,
// flattened together, index_add into zeros at those positions (overlaps add up).
Tensor unfold_backward(const Tensor& grad_in, IntArrayRef input_sizes, int64_t dim, int64_t size,
                       int64_t step) {
  const auto ndim = static_cast<int64_t>(input_sizes.size());
  const int64_t d = detail::wrap_dim(dim, ndim, "unfold_backward");
  BRASA_CHECK(step > 0, "unfold_backward: step is ", step, " but must be > 0");
  const int64_t out_dims = ndim == 0 ? 1 : ndim + 1;  // a 0-d input unfolds to [size]
  BRASA_CHECK(grad_in.dim() == out_dims && grad_in.size(-1) == size,
              "unfold_backward: expected a gradient of unfold's output shape (", out_dims,
              " dims, the last of size ", size, "), got ", grad_in.sizes());
  if (ndim == 0) return grad_in.sum().to(grad_in.scalar_type());
  const int64_t windows = grad_in.size(d);
  const TensorOptions index_options = TensorOptions(kLong).device(grad_in.device());
  Tensor positions =
      (arange(windows, index_options) * step).unsqueeze(1) + arange(size, index_options);
  Tensor source = grad_in.movedim(-1, d + 1).flatten(d, d + 1);
  return zeros(input_sizes, grad_in.options()).index_add(d, positions.flatten(), source);
}

Tensor Tensor::unfold(int64_t dimension, int64_t size, int64_t step) const {
  return ops::unfold_op().call(*this, dimension, size, step);
}

}  // namespace brasa
