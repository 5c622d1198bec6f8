// Every op's shape/dtype rule is a meta function of its own (Note [Meta functions] in
// src/ops/meta.h): no CPU kernel serves the Meta key, and a meta result has the sizes, strides and
// dtype of the CPU result.
#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/dispatch/dispatcher.h"

using namespace brasa;

namespace {

// Composites written with dispatched ops: on meta tensors they run through those ops' meta
// functions, so one kernel serves CPU and Meta.
const std::set<std::string> kComposites = {
    "flip",          "roll",       "tril", "triu", "repeat", "embedding", "searchsorted.Tensor",
    "masked_select", "linalg_pinv"};

// A kernel that is also registered for a device with data of its own, or for Autograd, never reads
// a CPU buffer: views, empty, composites.
bool device_generic(const OperatorHandle& op, const void* fn) {
  for (DispatchKey k : {DispatchKey::CUDA, DispatchKey::PrivateUse1, DispatchKey::Autograd})
    if (op.unboxed_kernel(k) == fn) return true;
  return false;
}

}  // namespace

TEST(MetaFunctions, NoCpuKernelServesMeta) {
  int with_meta = 0;
  std::vector<std::string> shared;
  for (const OperatorHandle* op : all_ops()) {
    if (!op->has_kernel(DispatchKey::Meta)) continue;
    ++with_meta;
    const void* meta = op->unboxed_kernel(DispatchKey::Meta);
    ASSERT_NE(meta, nullptr) << op->name();
    EXPECT_FALSE(op->kernel_file(DispatchKey::Meta).empty()) << op->name();
    if (meta != op->unboxed_kernel(DispatchKey::CPU) || device_generic(*op, meta) ||
        kComposites.count(op->name()))
      continue;
    shared.push_back(op->name() + " (" + op->kernel_file(DispatchKey::Meta) + ")");
  }
  EXPECT_GT(with_meta, 150);
  std::string list;
  for (const std::string& s : shared) list += "\n  " + s;
  EXPECT_TRUE(shared.empty()) << "CPU kernels registered at Meta too; give them a meta function:"
                              << list;
}

TEST(MetaFunctions, CompositeListIsCurrent) {
  for (const std::string& name : kComposites) {
    const OperatorHandle* op = find_op(name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_EQ(op->unboxed_kernel(DispatchKey::Meta), op->unboxed_kernel(DispatchKey::CPU)) << name;
  }
}

namespace {

Tensor meta(const Tensor& t) { return t.to(Device(kMeta)); }

// f on CPU inputs and on their meta copies: same sizes, strides and dtype, and a meta result.
void expect_same_layout(const std::string& what, const std::vector<Tensor>& inputs,
                        const std::function<Tensor(const std::vector<Tensor>&)>& f) {
  std::vector<Tensor> on_meta;
  for (const Tensor& t : inputs) on_meta.push_back(meta(t));
  const Tensor want = f(inputs), got = f(on_meta);
  EXPECT_TRUE(got.is_meta()) << what;
  EXPECT_EQ(got.sizes(), want.sizes()) << what;
  EXPECT_EQ(got.strides(), want.strides()) << what;
  EXPECT_EQ(got.dtype(), want.dtype()) << what;
}

using Args = std::vector<Tensor>;

}  // namespace

TEST(MetaFunctions, ResultsMatchCpu) {
  const Tensor x = randn({4, 3}).t();  // [3, 4], strides (1, 3): the iterator keeps that order
  expect_same_layout("add broadcast", {x, randn({4}, kDouble)},
                     [](const Args& a) { return add(a[0], a[1]); });
  expect_same_layout("add [3,1] + [4]", {randn({3, 1}), arange(4)},
                     [](const Args& a) { return a[0] + a[1]; });
  expect_same_layout("sum dim keepdim", {randn({2, 3, 4})},
                     [](const Args& a) { return a[0].sum({1}, true); });
  expect_same_layout("sum of ints", {arange(24).view({2, 3, 4})}, [](const Args& a) {
    return a[0].sum({0, 2}, false);
  });
  expect_same_layout("matmul", {randn({2, 3, 4}), randn({4, 5})},
                     [](const Args& a) { return matmul(a[0], a[1]); });
  expect_same_layout("cat", {randn({2, 3}), arange(12).view({4, 3})}, [](const Args& a) {
    return cat({a[0], a[1]}, 0);
  });
  expect_same_layout("max_pool2d", {randn({1, 2, 7, 6})}, [](const Args& a) {
    return max_pool2d(a[0], {2, 2}, {2, 2}, {1, 0});
  });
  expect_same_layout("conv2d", {randn({2, 3, 8, 8}), randn({4, 3, 3, 3}), randn({4})},
                     [](const Args& a) {
                       return conv2d(a[0], a[1], a[2], {2, 2}, {1, 1});
                     });
  expect_same_layout("index_select", {randn({5, 3}), arange(4).flip({0})},
                     [](const Args& a) { return index_select(a[0], 0, a[1]); });
  expect_same_layout("softmax", {x}, [](const Args& a) { return softmax(a[0], 1); });
  expect_same_layout("softmax dtype", {arange(6).view({2, 3})},
                     [](const Args& a) { return softmax(a[0], 0, kDouble); });
}

TEST(MetaFunctions, ErrorsMatchCpu) {
  const Tensor a = randn({2, 3}), b = randn({4});
  EXPECT_THROW(add(a, b), ValueError);
  EXPECT_THROW(add(meta(a), meta(b)), ValueError);
  EXPECT_THROW(matmul(a, a), ValueError);
  EXPECT_THROW(matmul(meta(a), meta(a)), ValueError);
  EXPECT_THROW(cat({a, b}, 0), ValueError);
  EXPECT_THROW(cat({meta(a), meta(b)}, 0), ValueError);
  EXPECT_THROW(a.sum({2}), IndexError);
  EXPECT_THROW(meta(a).sum({2}), IndexError);
  EXPECT_THROW(softmax(arange(3), 0), TypeError);
  EXPECT_THROW(softmax(meta(arange(3)), 0), TypeError);
}
