// A first look at brasa: create tensors, slice them (views share storage), broadcast and promote
// dtypes like PyTorch, reduce, and print the results in libtorch's format.
#include <brasa/brasa.h>

#include <iostream>

using namespace brasa::indexing;

int main() {
  brasa::manual_seed(0);
  brasa::Tensor x = brasa::arange(12, brasa::kFloat).view({3, 4});
  std::cout << "x =\n" << x << "\n\n";

  // Slicing: libtorch's index() and the view ops return views of x's storage.
  brasa::Tensor rows = x.index({Slice(1, 3)});
  brasa::Tensor col = x.index({Ellipsis, 2});
  std::cout << "x[1:3] =\n" << rows << "\n\nx[..., 2] =\n" << col << "\n\n";
  std::cout << "x.t()[0] =\n" << x.t()[0] << "\n\n";
  x.index_put_({0, Slice()}, -1.0);  // writes through to x
  std::cout << "after x.index_put_({0, Slice()}, -1): x =\n"
            << x << "\nrows[0] (a view of x[1]) =\n"
            << rows[0] << "\n\n";

  // Broadcasting and type promotion.
  brasa::Tensor b = brasa::tensor({10, 20, 30, 40});  // int64
  std::cout << "x + b (float32 + int64 -> float32) =\n" << x + b << "\n\n";
  std::cout << "b / 4 (int64 / int -> float32, true division) =\n" << b / 4 << "\n\n";
  std::cout << "x.unsqueeze(2) * brasa::ones({2}) has shape "
            << (x.unsqueeze(2) * brasa::ones({2})).sizes() << "\n\n";

  // Reductions and a softmax.
  std::cout << "x.sum(1) =\n" << x.sum(1) << "\n\nx.softmax(1) =\n" << x.softmax(1) << "\n\n";
  std::cout << "randn({2, 3}) =\n" << brasa::randn({2, 3}) << "\n";
  return 0;
}
