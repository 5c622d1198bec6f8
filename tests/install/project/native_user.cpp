// Uses brasa's native API from an installed prefix.
#include <brasa/brasa.h>

#include <iostream>

int main() {
  brasa::Tensor a = brasa::full({2, 3}, 2.0);
  brasa::Tensor b = a * 3 + 1;
  std::cout << "native:";
  const float* p = b.data_ptr<float>();
  for (int64_t i = 0; i < b.numel(); ++i) std::cout << ' ' << p[i];
  std::cout << '\n';
  return 0;
}
