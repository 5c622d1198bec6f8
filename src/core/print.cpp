// Placeholder printer; replaced by the libtorch-format printer.
#include <ostream>

#include "brasa/core/tensor.h"

namespace brasa {
std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  Tensor c = t.contiguous().to(kDouble);
  const double* p = c.data_ptr<double>();
  for (int64_t i = 0; i < c.numel(); ++i) os << p[i] << " ";
  return os << "\n[ " << t.toString() << "{" << t.sizes() << "} ]";
}
void Tensor::print() const { }
}  // namespace brasa
