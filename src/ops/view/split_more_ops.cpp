// Splits returning views: tensor_split (by sections, indices or a tensor of either), hsplit,
// vsplit, dsplit and libtorch's unsafe_* forms of chunk/split.
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/view.h"

namespace brasa {
namespace {

int64_t split_dim(const Tensor& self, int64_t dim) {
  BRASA_CHECK(self.dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a ",
              "tensor with ", self.dim(), " dims");
  return detail::wrap_dim(dim, self.dim(), "tensor_split");
}

/// The directional split's dim after checking that self has at least min_dims dims and, for a
/// section count, that it divides the dim.
int64_t directional_dim(const Tensor& self, const char* op, int64_t min_dims, int64_t dim,
                        std::optional<int64_t> sections) {
  BRASA_CHECK(self.dim() >= min_dims, "torch.", op, " requires a tensor with at least ", min_dims,
              " dimension", min_dims > 1 ? "s" : "", ", but got a tensor with ", self.dim(),
              " dimensions!");
  if (sections) {
    BRASA_CHECK(*sections != 0, "torch.", op, " number of sections must be larger than 0, got ",
                *sections);
    BRASA_CHECK(self.size(dim) % *sections == 0, "torch.", op,
                " attempted to split along dimension ", dim, ", but the size of the dimension ",
                self.size(dim), " is not divisible by the split_size ", *sections, "!");
  }
  return dim;
}

}  // namespace

std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim) {
  const int64_t d = split_dim(self, dim);
  BRASA_CHECK(sections > 0, "number of sections must be larger than 0, got ", sections);
  const int64_t n = self.size(d);
  const int64_t base = n / sections, longer = n % sections;
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t len = base + (i < longer ? 1 : 0);
    out.push_back(self.slice(d, start, start + len));
    start += len;
  }
  return out;
}

std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices, int64_t dim) {
  const int64_t d = split_dim(self, dim);
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t end : indices) {
    out.push_back(self.slice(d, start, end));
    start = end;
  }
  out.push_back(self.slice(d, start));
  return out;
}

std::vector<Tensor> tensor_split(const Tensor& self, const Tensor& tensor_indices_or_sections,
                                 int64_t dim) {
  const Tensor& t = tensor_indices_or_sections;
  BRASA_CHECK_TYPE(t.dtype() == kLong, "tensor_split expected tensor_indices_or_sections to have ",
                   "dtype of long, but got ", t.dtype());
  BRASA_CHECK(t.dim() <= 1, "tensor_split expected tensor_indices_or_sections to be a ",
              "zero-dimensional or one-dimensional tensor, but got a tensor with ", t.dim(),
              " dims");
  if (t.dim() == 0) return tensor_split(self, t.item<int64_t>(), dim);
  // Read on the host, whatever the tensor's device (libtorch asks for a CPU tensor).
  const Tensor c = t.to(Device(kCPU)).contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return tensor_split(self, IntArrayRef(p, static_cast<size_t>(c.numel())), dim);
}

std::vector<Tensor> hsplit(const Tensor& self, int64_t sections) {
  const int64_t d = directional_dim(self, "hsplit", 1, self.dim() == 1 ? 0 : 1, sections);
  return tensor_split(self, sections, d);
}
std::vector<Tensor> hsplit(const Tensor& self, IntArrayRef indices) {
  const int64_t d = self.dim() == 1 ? 0 : 1;
  return tensor_split(self, indices, directional_dim(self, "hsplit", 1, d, std::nullopt));
}
std::vector<Tensor> vsplit(const Tensor& self, int64_t sections) {
  return tensor_split(self, sections, directional_dim(self, "vsplit", 2, 0, sections));
}
std::vector<Tensor> vsplit(const Tensor& self, IntArrayRef indices) {
  return tensor_split(self, indices, directional_dim(self, "vsplit", 2, 0, std::nullopt));
}
std::vector<Tensor> dsplit(const Tensor& self, int64_t sections) {
  return tensor_split(self, sections, directional_dim(self, "dsplit", 3, 2, sections));
}
std::vector<Tensor> dsplit(const Tensor& self, IntArrayRef indices) {
  return tensor_split(self, indices, directional_dim(self, "dsplit", 3, 2, std::nullopt));
}

// libtorch's unsafe_* outputs are no views to autograd: writing into them in place is allowed
// (Note [Multi-output views]).
static std::vector<Tensor> writable_parts(std::vector<Tensor> parts) {
  for (Tensor& t : parts) {
    TensorImpl* impl = t.unsafeGetTensorImpl();
    if (impl->creation_meta() == CreationMeta::MULTI_OUTPUT_NODE)
      impl->set_creation_meta(CreationMeta::DEFAULT, 0);
  }
  return parts;
}

std::vector<Tensor> unsafe_chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  return writable_parts(chunk(self, chunks, dim));
}
std::vector<Tensor> unsafe_split(const Tensor& self, int64_t split_size, int64_t dim) {
  return writable_parts(split(self, split_size, dim));
}
std::vector<Tensor> unsafe_split_with_sizes(const Tensor& self, IntArrayRef split_sizes,
                                            int64_t dim) {
  return writable_parts(split_with_sizes(self, split_sizes, dim));
}

}  // namespace brasa
