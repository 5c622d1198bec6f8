#pragma once
// Pieces of C++ code generation shared by the pointwise kernels (fusion.cpp) and the row kernels
// (row_fusion.cpp): the preamble every generated file starts with, the table of fusible pointwise
// ops and their C expressions, and C type names (Note [Generated math] in codegen.cpp).

#include <ostream>
#include <string>
#include <vector>

#include "compile/graph.h"

namespace brasa::compiler {

/// The generated file's first lines: typedefs and the vector math (Note [Generated math]).
const char* generated_preamble();

/// The C type of a dtype the kernels read ("float", "double", "long long", "int", "bool"), or
/// null when generated code does not handle it.
const char* c_type(ScalarType t);

/// Whether ops named `name` are in the table of fusible pointwise ops (fusible_pointwise decides
/// for a given call).
bool fusible_op_name(const std::string& name);

/// Whether `n` is a fusible pointwise node: a float or double op from the table, writing nothing,
/// with one result.
bool fusible_pointwise(const Graph& g, const Node& n);

/// The C statement computing node `n`'s result into `result` from its operands `a` (and `b`),
/// converted to the result's type first, as eager's kernels do after type promotion.
std::string pointwise_statement(const Graph& g, const Node& n, const std::string& result,
                                const std::string& a, const std::string& b);

/// `expr` (over `a`, `b`, the type T and F, the float suffix) for the dtype `t`.
std::string typed_expression(const std::string& expr, ScalarType t);

struct Kernel;
/// The generated function's opening: its signature, the element count `n`, and typed pointers
/// p<j> to input j and q<j> to output j.
void emit_kernel_header(const Graph& g, const Kernel& k, std::ostream& src);

/// The dims of `v` from innermost to outermost when its trace-time strides are a dense layout
/// other than row-major; empty otherwise (the result is then allocated row-major).
std::vector<int> layout_order(const ValueInfo& v);

}  // namespace brasa::compiler
