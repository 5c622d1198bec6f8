// aten overloads of brasa's factory, copy, view, matrix-product and sum ops.
#include "backends/extension/aten_forms.h"

namespace brasa::backend::detail {
namespace {

bool is_defined(const Value& v) { return v.is_tensor() && v.tensor().defined(); }

// brasa's mm is addmm(undefined self, mat1, mat2, beta, 1).
bool is_mm(const Stack& s) { return !is_defined(s[0]) && s[4].get<Scalar>().equal(1); }
bool is_addmm(const Stack& s) { return is_defined(s[0]); }
// aten's sum(self, dtype) reduces every dim without keepdim.
bool is_full_sum(const Stack& s) {
  return s[1].get<std::vector<int64_t>>().empty() && !s[2].get<bool>();
}

std::vector<AtenForm> core_forms() {
  return {
      {"empty.memory_format",
       "empty",
       "Tensor(int[], ScalarType?, Layout?, Device?, bool?, MemoryFormat?)",
       {arg(0), arg(1), none(), arg(2), none(), none()},
       always()},
      {"empty_strided",
       "empty_strided",
       "Tensor(int[], int[], ScalarType?, Layout?, Device?, bool?)",
       {arg(0), arg(1), arg(2), none(), arg(3), none()},
       always()},
      {"_copy_from",
       "copy_",
       "Tensor(Tensor, Tensor, bool)",
       {arg(1), arg(0), false_()},
       always(),
       0},
      {"copy_", "copy_", "Tensor(Tensor, Tensor, bool)", {arg(0), arg(1), false_()}, always(), 0},
      {"fill_.Scalar", "fill_", "Tensor(Tensor, Scalar)", {arg(0), arg(1)}, always(), 0},
      {"resize_",
       "resize_",
       "Tensor(Tensor, int[], MemoryFormat?)",
       {arg(0), arg(1), none()},
       always(),
       0},
      {"view", "view", "Tensor(Tensor, int[])", {arg(0), arg(1)}, always()},
      {"as_strided",
       "as_strided",
       "Tensor(Tensor, int[], int[], int?)",
       {arg(0), arg(1), arg(2), arg(3)},
       always()},
      {"mm", "addmm", "Tensor(Tensor, Tensor)", {arg(1), arg(2)}, always(&is_mm)},
      {"addmm",
       "addmm",
       "Tensor(Tensor, Tensor, Tensor, Scalar, Scalar)",
       {arg(0), arg(1), arg(2), arg(3), arg(4)},
       always(&is_addmm)},
      {"dot", "dot", "Tensor(Tensor, Tensor)", {arg(0), arg(1)}, always()},
      {"sum",
       "sum",
       "Tensor(Tensor, ScalarType?)",
       {arg(0), arg(3)},
       Serves{Serves::Functional, 4, -1, false, &is_full_sum}},
      {"sum.dim_IntList",
       "sum",
       "Tensor(Tensor, int[]?, bool, ScalarType?)",
       {arg(0), arg(1), arg(2), arg(3)},
       functional(4)},
      {"sum.IntList_out",
       "sum",
       "Tensor(Tensor, int[]?, bool, ScalarType?, Tensor)",
       {arg(0), arg(1), arg(2), arg(3), arg(4)},
       out_arg(4),
       4},
  };
}

const bool registered = add_aten_forms(core_forms());

}  // namespace
}  // namespace brasa::backend::detail
