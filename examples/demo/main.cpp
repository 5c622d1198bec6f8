// A first look at brasa: create tensors, broadcast and promote dtypes like PyTorch, print the
// results.
#include <brasa/brasa.h>

#include <iostream>

int main() {
  brasa::Tensor a = brasa::ones({2, 3});                    // float32 (the default dtype)
  brasa::Tensor b = brasa::full({3}, 2.5);                  // broadcast along the rows of a
  brasa::Tensor c = brasa::full({2, 1}, 10, brasa::kLong);  // broadcast along the columns
  std::cout << "a + b =\n" << (a + b) << "\n\n";
  std::cout << "a * 3 - 1 =\n" << (a * 3 - 1) << "\n\n";
  std::cout << "(a + b) * c  (float32 * int64 -> float32) =\n" << (a + b) * c << "\n\n";
  std::cout << "c / 4  (int64 / int -> float32, true division) =\n" << c / 4 << "\n\n";
  std::cout << "a + b > 3 =\n" << (a + b > 3) << "\n";
  return 0;
}
