#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "brasa/backend/backend.h"
#include "brasa/brasa.h"
#include "brasa/dispatch/dispatcher.h"

using namespace brasa;

namespace {

// A test op with a CPU kernel and a Trace kernel that records and redispatches.
BRASA_DECLARE_OP(twice_op, "test::twice", "test::twice(Tensor self) -> Tensor",
                 Tensor(const Tensor&));
BRASA_DEFINE_OP(twice_op)
std::vector<std::string> g_trace;
Tensor twice_cpu(const Tensor& t) { return t * 2; }
Tensor twice_trace(const Tensor& t) {
  g_trace.push_back("twice");
  ExcludeDispatchKeyGuard guard(DispatchKey::Trace);
  return twice_op().call(t);
}
BRASA_REGISTER_KERNEL(twice_op, twice_cpu, CPU)
BRASA_REGISTER_KERNEL(twice_op, twice_trace, Trace)

BRASA_DECLARE_OP(boxed_only_op, "test::boxed_only",
                 "test::boxed_only(Tensor self, int n) -> Tensor", Tensor(const Tensor&, int64_t));
BRASA_DEFINE_OP(boxed_only_op)
void boxed_only_cpu(const OperatorHandle&, DispatchKeySet, Stack& stack) {
  Tensor t = stack[0].tensor();
  int64_t n = stack[1].get<int64_t>();
  stack.clear();
  stack.emplace_back(t + n);
}

}  // namespace

TEST(Dispatcher, FindsOpsByNameWithSchema) {
  OperatorHandle* add = find_op("add");
  ASSERT_NE(add, nullptr);
  EXPECT_NE(add->schema().find("Scalar alpha"), std::string::npos);
  EXPECT_TRUE(add->has_kernel(DispatchKey::CPU));
  EXPECT_TRUE(add->has_kernel(DispatchKey::Meta));
  EXPECT_EQ(find_op("no_such_op"), nullptr);
  EXPECT_GT(all_ops().size(), 50u);
}

TEST(Dispatcher, BoxedCallOfAnUnboxedKernel) {
  Stack stack{Value(ones({2, 2})), Value(full({2}, 3.0)), Value(Scalar(2)), Value()};
  find_op("add")->call_boxed(stack);
  ASSERT_EQ(stack.size(), 1u);
  Tensor r = stack[0].tensor();
  EXPECT_EQ(r.sizes(), IntArrayRef({2, 2}));
  EXPECT_FLOAT_EQ(r.data_ptr<float>()[3], 7.0f);
}

TEST(Dispatcher, UnboxedCallOfABoxedKernel) {
  boxed_only_op().impl_boxed(DispatchKey::CPU, &boxed_only_cpu);
  Tensor r = boxed_only_op().call(ones({3}, kLong), 4);
  EXPECT_EQ(r.dtype(), kLong);
  EXPECT_EQ(r.data_ptr<int64_t>()[2], 5);
}

TEST(Dispatcher, IncludedKeyRunsAndRedispatches) {
  g_trace.clear();
  Tensor x = ones({2});
  EXPECT_FLOAT_EQ(twice_op().call(x).data_ptr<float>()[0], 2.0f);
  EXPECT_TRUE(g_trace.empty());
  {
    IncludeDispatchKeyGuard trace(DispatchKey::Trace);
    EXPECT_FLOAT_EQ(twice_op().call(x).data_ptr<float>()[1], 2.0f);
  }
  EXPECT_EQ(g_trace.size(), 1u);
  EXPECT_TRUE(tls_dispatch_keys.included.empty());
  EXPECT_TRUE(tls_dispatch_keys.excluded.empty());
}

TEST(Dispatcher, MissingKernelNamesOpAndKeys) {
  try {
    twice_op().call(empty({2}, Device(kMeta)));
    FAIL() << "expected NotImplementedError";
  } catch (const NotImplementedError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("test::twice"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Meta"), std::string::npos) << msg;
  }
}
