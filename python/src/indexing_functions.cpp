// torch's functional indexing and rearranging functions that libbrasa has as C++ composites
// (scatter, index_add, tile, narrow, movedim, flips and splits, ...): Note [Composite functions in
// Python]. Functions of brasa._ops; python/brasa/_composite_functions.py adds the Tensor methods.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/shaping.h"
#include "brasa/ops/view.h"
#include "composites.h"
#include "convert.h"

namespace nb = nanobind;

namespace brasa::python {
namespace {

using T = const Tensor&;
using Tensors = std::vector<Tensor>;
using G = nb::gil_scoped_release;

/// The tensors f returns (computed with the GIL released) as a Python tuple.
template <class F>
nb::tuple released_tuple(F&& f) {
  Tensors r;
  {
    G g;
    r = f();
  }
  return tensor_tuple(r);
}

/// An int list given as one list or as varargs (t.tile(2, 3), t.tile((2, 3))).
std::vector<int64_t> int_list_args(nb::args a, const char* fn) {
  if (a.size() == 1)
    if (auto v = to_int_list(a[0])) return *v;
  std::vector<int64_t> r;
  for (nb::handle h : a) {
    auto i = to_int(h);
    if (!i) throw brasa::TypeError(std::string(fn) + "(): expected ints or one sequence of ints");
    r.push_back(*i);
  }
  return r;
}

void bind_scatter_family(nb::module_& m) {
  m.def(
      "scatter",
      [](T a, int64_t dim, T index, nb::handle src, nb::handle value,
         std::optional<std::string> reduce) {
        nb::handle v = src.is_none() ? value : src;
        if (reduce) {  // torch 1.13's scatter(..., reduce="add" / "multiply"): self included
          BRASA_CHECK(*reduce == "add" || *reduce == "multiply",
                      "scatter: reduce must be 'add' or 'multiply', got '", *reduce, "'");
          Tensor s = nb::isinstance<Tensor>(v)
                         ? nb::cast<Tensor>(v)
                         : full(index.sizes(), scalar_arg(v, "scatter", "value"),
                                TensorOptions(a.dtype()));
          G g;
          return scatter_reduce(a, dim, index, s, *reduce == "add" ? "sum" : "prod", true);
        }
        if (nb::isinstance<Tensor>(v)) {
          Tensor s = nb::cast<Tensor>(v);
          G g;
          return scatter(a, dim, index, s);
        }
        Scalar s = scalar_arg(v, "scatter", "value");
        G g;
        return scatter(a, dim, index, s);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("src").none() = nb::none(),
      nb::kw_only(), nb::arg("value").none() = nb::none(), nb::arg("reduce").none() = nb::none());
  m.def(
      "scatter_add",
      [](T a, int64_t dim, T index, T src) {
        G g;
        return scatter_add(a, dim, index, src);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("src"));
  m.def(
      "index_add",
      [](T a, int64_t dim, T index, T source, nb::handle alpha) {
        Scalar al = scalar_arg(alpha, "index_add", "alpha");
        G g;
        return index_add(a, dim, index, source, al);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("source"), nb::kw_only(),
      nb::arg("alpha") = 1);
  m.def(
      "index_copy",
      [](T a, int64_t dim, T index, T source) {
        G g;
        return index_copy(a, dim, index, source);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("source"));
  m.def(
      "index_fill",
      [](T a, int64_t dim, T index, nb::handle value) {
        Scalar v = nb::isinstance<Tensor>(value) ? nb::cast<Tensor>(value).item()
                                                 : scalar_arg(value, "index_fill", "value");
        G g;
        return index_fill(a, dim, index, v);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("index"), nb::arg("value"));
  m.def(
      "index_put",
      [](T a, std::vector<std::optional<Tensor>> indices, T values, bool accumulate) {
        G g;
        return index_put(a, indices, values, accumulate);
      },
      nb::arg("input"), nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
  m.def(
      "index_put_",
      [](T a, std::vector<std::optional<Tensor>> indices, T values, bool accumulate) {
        Tensor r;
        {
          G g;
          r = index_put(a, indices, values, accumulate);
          a.copy_(r);  // in place, as autograd sees it: a's new value is r
        }
        return a;
      },
      nb::arg("input"), nb::arg("indices"), nb::arg("values"), nb::arg("accumulate") = false);
  m.def(
      "put",
      [](T a, T index, T source, bool accumulate) {
        G g;
        return put(a, index, source, accumulate);
      },
      nb::arg("input"), nb::arg("index"), nb::arg("source"), nb::arg("accumulate") = false);
}

void bind_rearranging(nb::module_& m) {
  m.def("tile", [](T a, nb::args reps) {
    std::vector<int64_t> r = int_list_args(reps, "tile");
    G g;
    return tile(a, r);
  });
  m.def(
      "narrow",
      [](T a, int64_t dim, nb::handle start, int64_t length) {
        int64_t s = nb::isinstance<Tensor>(start) ? nb::cast<Tensor>(start).item().to<int64_t>()
                                                  : nb::cast<int64_t>(start);
        G g;
        return a.narrow(dim, s, length);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("start"), nb::arg("length"));
  for (const char* name : {"movedim", "moveaxis"}) {
    m.def(
        name,
        [](T a, nb::handle source, nb::handle destination) {
          auto s = to_int_list(source), d = to_int_list(destination);
          if (!s || !d) throw brasa::TypeError("movedim(): source and destination must be ints");
          G g;
          return a.movedim(*s, *d);
        },
        nb::arg("input"), nb::arg("source"), nb::arg("destination"));
  }
  m.def("fliplr", [](T a) {
    G g;
    return fliplr(a);
  });
  m.def("flipud", [](T a) {
    G g;
    return flipud(a);
  });
  m.def("ravel", [](T a) {
    G g;
    return ravel(a);
  });
  m.def("adjoint", [](T a) {
    G g;
    return adjoint(a);
  });
  using Split = Tensors (*)(T, int64_t);
  using SplitAt = Tensors (*)(T, IntArrayRef);
  for (auto [name, by_count, at] :
       {std::tuple<const char*, Split, SplitAt>{"hsplit", &hsplit, &hsplit},
        {"vsplit", &vsplit, &vsplit},
        {"dsplit", &dsplit, &dsplit}}) {
    m.def(
        name,
        [by_count, at](T a, nb::handle sections) {
          Tensors r;
          if (auto n = to_int(sections)) {
            G g;
            r = by_count(a, *n);
          } else {
            std::vector<int64_t> idx = nb::cast<std::vector<int64_t>>(sections);
            G g;
            r = at(a, idx);
          }
          return tensor_tuple(r);
        },
        nb::arg("input"), nb::arg("indices_or_sections"));
  }
  for (const char* name : {"atleast_1d", "atleast_2d", "atleast_3d"}) {
    const char level = name[8];
    m.def(name, [level](nb::args a) -> nb::object {
      auto one = [level](T t) {
        G g;
        return level == '1' ? atleast_1d(t) : level == '2' ? atleast_2d(t) : atleast_3d(t);
      };
      if (a.size() == 1 && nb::isinstance<Tensor>(a[0]))
        return nb::cast(one(nb::cast<Tensor>(a[0])));
      Tensors ts = a.size() == 1 ? nb::cast<Tensors>(a[0]) : nb::cast<Tensors>(a);
      nb::list l;
      for (const Tensor& t : ts) l.append(nb::cast(one(t)));
      return nb::tuple(l);
    });
  }
  m.def(
      "concatenate",
      [](const Tensors& ts, int64_t dim) {
        G g;
        return concatenate(ts, dim);
      },
      nb::arg("tensors"), nb::arg("dim") = 0);
}

// The *_scatter embeddings (self with src written into a view of it), index tables, predicates.
void bind_embeddings_and_tables(nb::module_& m) {
  m.def(
      "select_scatter",
      [](T a, T src, int64_t dim, int64_t index) {
        G g;
        return select_scatter(a, src, dim, index);
      },
      nb::arg("input"), nb::arg("src"), nb::arg("dim"), nb::arg("index"));
  m.def(
      "slice_scatter",
      [](T a, T src, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
         int64_t step) {
        G g;
        return slice_scatter(a, src, dim, start, end, step);
      },
      nb::arg("input"), nb::arg("src"), nb::arg("dim") = 0, nb::arg("start").none() = nb::none(),
      nb::arg("end").none() = nb::none(), nb::arg("step") = 1);
  m.def(
      "as_strided_scatter",
      [](T a, T src, const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
         std::optional<int64_t> offset) {
        G g;
        return as_strided_scatter(a, src, size, stride, offset);
      },
      nb::arg("input"), nb::arg("src"), nb::arg("size"), nb::arg("stride"),
      nb::arg("storage_offset").none() = nb::none());
  m.def("argwhere", [](T a) {
    G g;
    return argwhere(a);
  });
  for (const char* name : {"tril_indices", "triu_indices"}) {
    const bool lower = std::string(name) == "tril_indices";
    m.def(
        name,
        [lower](int64_t row, int64_t col, int64_t offset, std::optional<DType> dtype, nb::handle,
                nb::handle) {
          TensorOptions o(dtype ? dtype->type : kLong);
          G g;
          return lower ? tril_indices(row, col, offset, o) : triu_indices(row, col, offset, o);
        },
        nb::arg("row"), nb::arg("col"), nb::arg("offset") = 0, nb::kw_only(),
        nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
        nb::arg("layout").none() = nb::none());
  }
  m.def(
      "range",
      [](nb::handle start, nb::handle end, nb::handle step, std::optional<DType> dtype, nb::handle,
         nb::handle, bool requires_grad) {
        Scalar s0 = scalar_arg(start, "range", "start"), s1 = scalar_arg(end, "range", "end"),
               st = scalar_arg(step, "range", "step");
        Tensor r;
        {
          G g;
          r = range(s0, s1, st, dtype_options(dtype));
        }
        return requires_grad ? r.requires_grad_(true) : r;
      },
      nb::arg("start"), nb::arg("end"), nb::arg("step") = 1, nb::kw_only(),
      nb::arg("dtype").none() = nb::none(), nb::arg("device").none() = nb::none(),
      nb::arg("layout").none() = nb::none(), nb::arg("requires_grad") = false);
  // The unsafe_* splits (views whose autograd does not check later in-place writes): tuples.
  m.def(
      "unsafe_chunk",
      [](T a, int64_t chunks, int64_t dim) {
        return released_tuple([&] { return unsafe_chunk(a, chunks, dim); });
      },
      nb::arg("input"), nb::arg("chunks"), nb::arg("dim") = 0);
  m.def(
      "unsafe_split",
      [](T a, int64_t size, int64_t dim) {
        return released_tuple([&] { return unsafe_split(a, size, dim); });
      },
      nb::arg("tensor"), nb::arg("split_size"), nb::arg("dim") = 0);
  m.def(
      "unsafe_split_with_sizes",
      [](T a, const std::vector<int64_t>& sizes, int64_t dim) {
        return released_tuple([&] { return unsafe_split_with_sizes(a, sizes, dim); });
      },
      nb::arg("input"), nb::arg("split_sizes"), nb::arg("dim") = 0);
  m.def(
      "unflatten",
      [](T a, int64_t dim, const std::vector<int64_t>& sizes) {
        G g;
        return unflatten(a, dim, sizes);
      },
      nb::arg("input"), nb::arg("dim"), nb::arg("sizes"));
  m.def(
      "bucketize",
      [](T a, T boundaries, bool out_int32, bool right) {
        G g;
        return bucketize(a, boundaries, out_int32, right);
      },
      nb::arg("input"), nb::arg("boundaries"), nb::kw_only(), nb::arg("out_int32") = false,
      nb::arg("right") = false);
  // (values, inverse, counts), inverse / counts empty unless asked; dim: unique_dim.
  m.def(
      "_unique",
      [](T a, bool sorted, bool inverse, bool counts, std::optional<int64_t> dim) {
        G g;
        return dim ? unique_dim(a, *dim, sorted, inverse, counts)
                   : unique(a, sorted, inverse, counts);
      },
      nb::arg("input"), nb::arg("sorted"), nb::arg("return_inverse"), nb::arg("return_counts"),
      nb::arg("dim").none());
  m.def("is_nonzero", [](T a) {
    G g;
    return is_nonzero(a);
  });
  m.def("is_same_size", [](T a, T b) { return is_same_size(a, b); });
  m.def("equal", [](T a, T b) {
    G g;
    return brasa::equal(a, b);
  });
  m.def("resolve_neg", [](T a) {
    G g;
    return resolve_neg(a);
  });
}

}  // namespace

void bind_indexing_functions(nb::module_& m) {
  bind_scatter_family(m);
  bind_rearranging(m);
  bind_embeddings_and_tables(m);
}

}  // namespace brasa::python
