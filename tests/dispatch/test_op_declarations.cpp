// Every op is declared once, in its family's header (Note [Op declarations]). BRASA_DECLARE_OP
// static_asserts that the schema names the op and has as many arguments and results as the C++
// signature; a declaration that breaks this does not compile, which a test binary cannot show, so
// here the constexpr parser behind those asserts is checked on literal schemas, and the registry
// is checked at run time.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "brasa/dispatch/dispatcher.h"

using namespace brasa;
using detail::schema_arg_count;
using detail::schema_names_op;
using detail::schema_return_count;

static_assert(schema_arg_count("f(Tensor a, int[] b, float? c) -> Tensor") == 3);
static_assert(schema_arg_count("f() -> Tensor") == 0);
static_assert(schema_arg_count("f(Tensor(a!) self, Tensor(b!)? other) -> ()") == 2);
static_assert(schema_arg_count("f(int[2] size, Tensor(a) x) -> Tensor(a)") == 2);
static_assert(schema_arg_count("f(Tensor a") == -1);
static_assert(schema_return_count("f(Tensor a) -> Tensor") == 1);
static_assert(schema_return_count("f(Tensor a) -> Tensor(a)[]") == 1);
static_assert(schema_return_count("f(Tensor a) -> ()") == 0);
static_assert(schema_return_count("f(Tensor a) -> (Tensor values, Tensor indices)") == 2);
static_assert(schema_return_count("f(Tensor a) Tensor") == -1);
static_assert(schema_names_op("add(Tensor a) -> Tensor", "add"));
static_assert(!schema_names_op("addmm(Tensor a) -> Tensor", "add"));
static_assert(schema_names_op("max.dim(Tensor a) -> Tensor", "max.dim"));
static_assert(schema_names_op("eye.m(int n) -> Tensor", "eye"));  // an aten overload name
static_assert(!schema_names_op("max.dim(Tensor a) -> Tensor", "max.di"));
static_assert(detail::signature_arity<void(int, double)>::args == 2);
static_assert(detail::signature_arity<void(int)>::results == 0);
static_assert(detail::signature_arity<std::tuple<Tensor, Tensor>(int)>::results == 2);

namespace {
// An op declared and defined here, as a family header and its .cpp would.
BRASA_DECLARE_OP(declared_here_op, "test::declared_here",
                 "test::declared_here(Tensor self, int n) -> Tensor",
                 Tensor(const Tensor&, int64_t));
BRASA_DEFINE_OP(declared_here_op)
Tensor declared_here_cpu(const Tensor& self, int64_t) { return self; }
BRASA_REGISTER_KERNEL(declared_here_op, declared_here_cpu, CPU)
}  // namespace

TEST(OpDeclarations, RecordTheDeclaringAndRegisteringFiles) {
  const OperatorHandle& op = declared_here_op();
  EXPECT_EQ(op.declared_in(), "tests/dispatch/test_op_declarations.cpp");
  EXPECT_EQ(op.kernel_file(DispatchKey::CPU), "tests/dispatch/test_op_declarations.cpp");
  EXPECT_EQ(op.kernel_file(DispatchKey::Meta), "");
  EXPECT_EQ(op.num_arguments(), 2);
}

TEST(OpDeclarations, EveryOpNamesItsHeaderAndMatchesItsSchema) {
  const auto ops = all_ops();
  ASSERT_GT(ops.size(), 200u);
  std::set<std::string> headers;
  for (const OperatorHandle* op : ops) {
    SCOPED_TRACE(op->name());
    const std::string& file = op->declared_in();
    ASSERT_FALSE(file.empty());
    EXPECT_NE(file.front(), '/') << file;  // relative to the source root
    if (op->name().rfind("test::", 0) != 0) {
      EXPECT_TRUE(file.rfind("src/", 0) == 0 && file.size() > 2 &&
                  file.compare(file.size() - 2, 2, ".h") == 0)
          << "declared in " << file << ", not in a family header";
      headers.insert(file);
    }
    EXPECT_EQ(static_cast<int>(op->schema_info().arguments.size()), op->num_arguments());
    EXPECT_EQ(schema_arg_count(op->schema()), op->num_arguments());
    EXPECT_TRUE(schema_names_op(op->schema(), op->name())) << op->schema();
  }
  EXPECT_GT(headers.size(), 10u);
}

TEST(OpDeclarations, KernelsNameTheirFiles) {
  const OperatorHandle* add = find_op("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->declared_in(), "src/ops/pointwise/binary_ops.h");
  EXPECT_EQ(add->kernel_file(DispatchKey::CPU), "src/ops/pointwise/binary_ops.cpp");
  EXPECT_EQ(add->kernel_file(DispatchKey::Autograd), "src/ops/pointwise/binary_grad.cpp");
  const OperatorHandle* pool = find_op("max_pool2d_with_indices");
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->declared_in(), "src/ops/pool/pool_ops.h");
  EXPECT_EQ(pool->kernel_file(DispatchKey::CPU), "src/ops/pool/max_pool.cpp");
  EXPECT_EQ(pool->kernel_file(DispatchKey::Autograd), "src/ops/pool/pool_grad.cpp");
}
