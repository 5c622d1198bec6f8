// A first look at brasa: create, slice, broadcast and print tensors.
#include <brasa/brasa.h>

#include <iostream>

int main() {
  brasa::Tensor a = brasa::ones({2, 3});
  brasa::Tensor b = brasa::full({3}, 2.5);
  std::cout << "a + b =\n" << (a + b) << "\n";
  std::cout << "a * 3 - 1 =\n" << (a * 3 - 1) << "\n";
  return 0;
}
