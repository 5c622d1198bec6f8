// torch functions that libbrasa has as C++ composites (free functions outside the op registry, so
// op_binding.cpp does not see them): sorting and order statistics, NaN-aware reductions, diagonals
// and other shape functions, calculus helpers. Each is bound with torch's argument names as a
// function of brasa._ops; python/brasa/_functions.py makes Tensor methods of those torch has as
// methods and torch's named tuples of tuple results. The GIL is released around each C++ call.
// Which torch functions the Python API still lacks: tests/conformance/python_known_failures.txt.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/core/type_promotion.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/statistics.h"
#include "composites.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using Tensors = std::vector<Tensor>;
using OptInt = std::optional<int64_t>;
using OptTensor = std::optional<Tensor>;
using G = nb::gil_scoped_release;

/// torch.result_type's operands: a tensor, or a Python number (a wrapped number).
ScalarType result_type_of(nb::handle a, nb::handle b) {
  const bool ta = nb::isinstance<Tensor>(a), tb = nb::isinstance<Tensor>(b);
  if (ta && tb) return result_type(nb::cast<Tensor>(a), nb::cast<Tensor>(b));
  if (ta) return result_type(nb::cast<Tensor>(a), scalar_arg(b, "result_type", "other"));
  if (tb) return result_type(scalar_arg(a, "result_type", "tensor"), nb::cast<Tensor>(b));
  throw brasa::TypeError("result_type(): expected at least one tensor among its two arguments");
}

void bind_promotion(nb::module_& m) {
  m.def(
      "result_type", [](nb::handle a, nb::handle b) { return dtype_object(result_type_of(a, b)); },
      nb::arg("tensor"), nb::arg("other"));
  m.def(
      "promote_types",
      [](const DType& a, const DType& b) { return dtype_object(promote_types(a.type, b.type)); },
      nb::arg("type1"), nb::arg("type2"));
  m.def(
      "can_cast", [](const DType& from, const DType& to) { return can_cast(from.type, to.type); },
      nb::arg("from_"), nb::arg("to"));
}

void bind_order_statistics(nb::module_& m) {
  m.def(
      "argsort",
      [](T a, int64_t dim, bool descending) {
        G g;
        return argsort(a, dim, descending);
      },
      nb::arg("input"), nb::arg("dim") = -1, nb::arg("descending") = false);
  m.def(
      "_sort_stable",
      [](T a, std::optional<bool> stable, int64_t dim, bool descending) {
        G g;
        return sort(a, stable, dim, descending);
      },
      nb::arg("input"), nb::arg("stable"), nb::arg("dim"), nb::arg("descending"));
  m.def(
      "msort",
      [](T a) {
        G g;
        return msort(a);
      },
      nb::arg("input"));
  m.def("_median_all", [](T a) {
    G g;
    return median(a);
  });
  m.def("_median_dim", [](T a, int64_t dim, bool keepdim) {
    G g;
    return median(a, dim, keepdim);
  });
  m.def("_nanmedian_all", [](T a) {
    G g;
    return nanmedian(a);
  });
  m.def("_nanmedian_dim", [](T a, int64_t dim, bool keepdim) {
    G g;
    return nanmedian(a, dim, keepdim);
  });
  m.def("_kthvalue", [](T a, int64_t k, int64_t dim, bool keepdim) {
    G g;
    return kthvalue(a, k, dim, keepdim);
  });
  // out=(values, indices): written in place, resized as needed.
  m.def("_median_dim_out", [](T a, int64_t dim, bool keepdim, Tensor values, Tensor indices) {
    G g;
    median_out(values, indices, a, dim, keepdim);
  });
  m.def("_kthvalue_out",
        [](T a, int64_t k, int64_t dim, bool keepdim, Tensor values, Tensor indices) {
          G g;
          kthvalue_out(values, indices, a, k, dim, keepdim);
        });
  m.def("_mode", [](T a, int64_t dim, bool keepdim) {
    G g;
    return mode(a, dim, keepdim);
  });
  m.def("_aminmax", [](T a, OptInt dim, bool keepdim) {
    G g;
    return aminmax(a, dim, keepdim);
  });
  for (const char* name : {"quantile", "nanquantile"}) {
    const bool nan = name[0] == 'n';
    m.def(
        name,
        [nan](T a, nb::handle q, OptInt dim, bool keepdim, const std::string& interpolation) {
          if (nb::isinstance<Tensor>(q)) {
            Tensor qt = nb::cast<Tensor>(q);
            G g;
            return nan ? nanquantile(a, qt, dim, keepdim, interpolation)
                       : quantile(a, qt, dim, keepdim, interpolation);
          }
          const double qd = nb::cast<double>(q);
          G g;
          return nan ? nanquantile(a, qd, dim, keepdim, interpolation)
                     : quantile(a, qd, dim, keepdim, interpolation);
        },
        nb::arg("input"), nb::arg("q"), nb::arg("dim").none() = nb::none(),
        nb::arg("keepdim") = false, nb::arg("interpolation") = "linear");
  }
}

void bind_nan_reductions(nb::module_& m) {
  // (var, mean) / (std, mean); dims empty = all (python/brasa/_functions.py's _variance).
  for (const char* name : {"_var_mean", "_std_mean"}) {
    const bool var = std::string(name) == "_var_mean";
    m.def(name, [var](T a, nb::handle dim, int64_t correction, bool keepdim) {
      const std::optional<std::vector<int64_t>> dims = optional_int_list(dim);
      OptionalIntArrayRef d = dims && !dims->empty() ? optional_dims(dims) : OptionalIntArrayRef();
      const std::optional<int64_t> c = correction;  // not the `bool unbiased` overload
      G g;
      return var ? var_mean(a, d, c, keepdim) : std_mean(a, d, c, keepdim);
    });
  }
  for (const char* name : {"nansum", "nanmean"}) {
    const bool sum = name[3] == 's';
    m.def(
        name,
        [sum](T a, nb::handle dim, bool keepdim, std::optional<DType> dtype) {
          std::optional<std::vector<int64_t>> dims = optional_int_list(dim);
          std::optional<ScalarType> dt = optional_scalar_type(dtype);
          G g;
          OptionalIntArrayRef d = optional_dims(dims);
          return sum ? nansum(a, d, keepdim, dt) : nanmean(a, d, keepdim, dt);
        },
        nb::arg("input"), nb::arg("dim").none() = nb::none(), nb::arg("keepdim") = false,
        nb::kw_only(), nb::arg("dtype").none() = nb::none());
  }
}

void bind_shape_functions(nb::module_& m) {
  m.def(
      "rot90",
      [](T a, int64_t k, std::vector<int64_t> dims) {
        G g;
        return rot90(a, k, dims);
      },
      nb::arg("input"), nb::arg("k") = 1, nb::arg("dims") = std::vector<int64_t>{0, 1});
  m.def(
      "diag",
      [](T a, int64_t diagonal) {
        G g;
        return diag(a, diagonal);
      },
      nb::arg("input"), nb::arg("diagonal") = 0);
  m.def(
      "diag_embed",
      [](T a, int64_t offset, int64_t dim1, int64_t dim2) {
        G g;
        return diag_embed(a, offset, dim1, dim2);
      },
      nb::arg("input"), nb::arg("offset") = 0, nb::arg("dim1") = -2, nb::arg("dim2") = -1);
  m.def(
      "diagflat",
      [](T a, int64_t offset) {
        G g;
        return diagflat(a, offset);
      },
      nb::arg("input"), nb::arg("offset") = 0);
  m.def(
      "diagonal_scatter",
      [](T a, T src, int64_t offset, int64_t dim1, int64_t dim2) {
        G g;
        return diagonal_scatter(a, src, offset, dim1, dim2);
      },
      nb::arg("input"), nb::arg("src"), nb::arg("offset") = 0, nb::arg("dim1") = 0,
      nb::arg("dim2") = 1);
  m.def(
      "take_along_dim",
      [](T a, T indices, OptInt dim) {
        G g;
        return take_along_dim(a, indices, dim);
      },
      nb::arg("input"), nb::arg("indices"), nb::arg("dim").none() = nb::none());
  m.def(
      "tensor_split",
      [](T a, nb::handle what, int64_t dim) {
        Tensors r;
        if (nb::isinstance<Tensor>(what)) {
          Tensor w = nb::cast<Tensor>(what);
          G g;
          r = tensor_split(a, w, dim);
        } else if (auto n = to_int(what)) {
          G g;
          r = tensor_split(a, *n, dim);
        } else {
          std::vector<int64_t> idx = nb::cast<std::vector<int64_t>>(what);
          G g;
          r = tensor_split(a, idx, dim);
        }
        return tensor_tuple(r);
      },
      nb::arg("input"), nb::arg("indices_or_sections"), nb::arg("dim") = 0);
  m.def("block_diag", [](nb::args ts) {
    Tensors v = nb::cast<Tensors>(ts);
    G g;
    return block_diag(v);
  });
  m.def("cartesian_prod", [](nb::args ts) {
    Tensors v = nb::cast<Tensors>(ts);
    G g;
    return cartesian_prod(v);
  });
  m.def("broadcast_tensors", [](nb::args ts) {
    Tensors v = nb::cast<Tensors>(ts);
    Tensors r;
    {
      G g;
      r = broadcast_tensors(v);
    }
    return tensor_tuple(r);
  });
  for (const char* name : {"column_stack", "dstack", "hstack", "vstack", "row_stack"}) {
    const std::string n = name;
    m.def(
        name,
        [n](const Tensors& v) {
          G g;
          if (n == "column_stack") return column_stack(v);
          if (n == "dstack") return dstack(v);
          if (n == "hstack") return hstack(v);
          return vstack(v);
        },
        nb::arg("tensors"));
  }
  m.def(
      "combinations",
      [](T a, int64_t r, bool with_replacement) {
        G g;
        return combinations(a, r, with_replacement);
      },
      nb::arg("input"), nb::arg("r") = 2, nb::arg("with_replacement") = false);
  m.def(
      "vander",
      [](T x, OptInt n, bool increasing) {
        G g;
        return vander(x, n, increasing);
      },
      nb::arg("x"), nb::arg("N").none() = nb::none(), nb::arg("increasing") = false);
}

void bind_calculus(nb::module_& m) {
  m.def(
      "diff",
      [](T a, int64_t n, int64_t dim, OptTensor prepend, OptTensor append) {
        G g;
        return diff(a, n, dim, prepend, append);
      },
      nb::arg("input"), nb::arg("n") = 1, nb::arg("dim") = -1,
      nb::arg("prepend").none() = nb::none(), nb::arg("append").none() = nb::none());
  m.def(
      "trace",
      [](T a) {
        G g;
        return trace(a);
      },
      nb::arg("input"));
  m.def(
      "corrcoef",
      [](T a) {
        G g;
        return corrcoef(a);
      },
      nb::arg("input"));
  m.def(
      "cov",
      [](T a, int64_t correction, OptTensor fweights, OptTensor aweights) {
        G g;
        return cov(a, correction, fweights, aweights);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("correction") = 1,
      nb::arg("fweights").none() = nb::none(), nb::arg("aweights").none() = nb::none());
  // torch.gradient: spacing None / a number / numbers per dim / coordinate tensors per dim; dim
  // None / an int / a list (one result per dim either way).
  m.def(
      "gradient",
      [](T a, nb::handle spacing, nb::handle dim, int64_t edge_order) {
        const std::optional<std::vector<int64_t>> dims = optional_int_list(dim);
        const bool dim_list = dims && !to_int(dim);
        const OptInt one_dim = dims && !dim_list ? OptInt(dims->front()) : std::nullopt;
        std::vector<Tensor> r;
        if (std::optional<Scalar> step = number_to_scalar(spacing); step || spacing.is_none()) {
          G g;
          r = dim_list ? (step ? gradient(a, *step, *dims, edge_order)
                               : gradient(a, IntArrayRef(*dims), edge_order))
                       : gradient(a, step, one_dim, edge_order);
        } else if (nb::len(spacing) > 0 && nb::isinstance<Tensor>(spacing[0])) {
          const auto coords = nb::cast<std::vector<Tensor>>(spacing);
          G g;
          r = dim_list ? gradient(a, TensorList(coords), *dims, edge_order)
                       : gradient(a, TensorList(coords), one_dim, edge_order);
        } else {
          std::vector<Scalar> steps;
          for (nb::handle h : spacing) steps.push_back(scalar_arg(h, "gradient", "spacing"));
          G g;
          r = dim_list ? gradient(a, ArrayRef<Scalar>(steps), *dims, edge_order)
                       : gradient(a, ArrayRef<Scalar>(steps), one_dim, edge_order);
        }
        return tensor_tuple(r);
      },
      nb::arg("input"), nb::kw_only(), nb::arg("spacing").none() = nb::none(),
      nb::arg("dim").none() = nb::none(), nb::arg("edge_order") = 1);
  m.def(
      "histc",
      [](T a, int64_t bins, double min, double max) {
        G g;
        return histc(a, bins, min, max);
      },
      nb::arg("input"), nb::arg("bins") = 100, nb::arg("min") = 0, nb::arg("max") = 0);
  m.def(
      "bincount",
      [](T a, OptTensor weights, int64_t minlength) {
        G g;
        return bincount(a, weights, minlength);
      },
      nb::arg("input"), nb::arg("weights").none() = nb::none(), nb::arg("minlength") = 0);
}

}  // namespace

void bind_composite_functions(nb::module_& m) {
  bind_promotion(m);
  bind_order_statistics(m);
  bind_nan_reductions(m);
  bind_shape_functions(m);
  bind_calculus(m);
}

}  // namespace brasa::python
