// Factories: arange/linspace/logspace/eye values and dtypes (vs PyTorch 1.13), tensor literals,
// from_blob.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "brasa/brasa.h"
#include "brasa/core/empty.h"

using namespace brasa;

namespace {
template <typename T>
std::vector<T> values(const Tensor& t) {
  Tensor c = t.contiguous();
  const T* p = c.data_ptr<T>();
  return std::vector<T>(p, p + c.numel());
}
std::vector<float> as_float(const Tensor& t) { return values<float>(t.to(kFloat)); }
}  // namespace

TEST(Factory, ArangeDtypeInference) {
  EXPECT_EQ(arange(5).dtype(), kLong);
  EXPECT_EQ(arange(5.0).dtype(), kFloat);
  EXPECT_EQ(arange(true).dtype(), kLong);
  EXPECT_EQ(arange(1, 10, 2.5).dtype(), kFloat);
  EXPECT_EQ(arange(0.0, 5).dtype(), kFloat);
  EXPECT_EQ(arange(5, kInt).dtype(), kInt);
  EXPECT_EQ(arange(0, 5, TensorOptions(kHalf)).dtype(), kHalf);
  EXPECT_EQ(values<int64_t>(arange(5)), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(values<int64_t>(arange(10, 0, -3)), (std::vector<int64_t>{10, 7, 4, 1}));
  EXPECT_EQ(values<int8_t>(arange(5, kChar)), (std::vector<int8_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(arange(0, 0).numel(), 0);
}

TEST(Factory, ArangeFloatIsStartPlusIStep) {
  // torch.arange(1, 2.5, 0.1): 15 elements (the size is ceil((end - start) / step) in double).
  Tensor a = arange(1, 2.5, 0.1);
  ASSERT_EQ(a.numel(), 15);
  std::vector<float> v = values<float>(a);
  for (int i = 0; i < 15; ++i) EXPECT_EQ(v[i], float(1.0 + i * 0.1)) << i;
  Tensor b = arange(-3, 3, 0.7);
  ASSERT_EQ(b.numel(), 9);
  EXPECT_FLOAT_EQ(values<float>(b)[8], 2.5999999046325684f);
  EXPECT_EQ(values<double>(arange(0, 10, 3, kDouble)), (std::vector<double>{0, 3, 6, 9}));
  EXPECT_EQ(as_float(arange(10, kHalf))[9], 9.0f);
  EXPECT_EQ(as_float(arange(0, 1, 0.25, kBFloat16)), (std::vector<float>{0, 0.25, 0.5, 0.75}));
}

TEST(Factory, ArangeErrors) {
  EXPECT_THROW(arange(0, 10, 0), ValueError);
  EXPECT_THROW(arange(0, 10, -1), ValueError);
  EXPECT_THROW(arange(-5), ValueError);
  EXPECT_THROW(arange(0, INFINITY), ValueError);
  EXPECT_THROW(arange(0, NAN), ValueError);
  EXPECT_THROW(arange(5, kBool), TypeError);
  EXPECT_THROW(arange(0, 3, 0.5, kLong), ValueError);  // the step is 0 in Long, like PyTorch
  try {
    arange(0, 10, 0);
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("step must be nonzero"), std::string::npos);
  }
}

TEST(Factory, LinspaceMatchesPyTorch) {
  std::vector<float> v = values<float>(linspace(-1, 1, 7));
  std::vector<float> expect = {-1.0f,
                               -0.6666666269302368f,
                               -0.3333333134651184f,
                               -2.9802322387695312e-08f,
                               0.3333333134651184f,
                               0.6666666269302368f,
                               1.0f};
  ASSERT_EQ(v.size(), expect.size());
  for (size_t i = 0; i < v.size(); ++i) EXPECT_FLOAT_EQ(v[i], expect[i]) << i;
  EXPECT_EQ(linspace(0, 10, 5).dtype(), kFloat);
  EXPECT_EQ(values<float>(linspace(10, 0, 5)), (std::vector<float>{10, 7.5, 5, 2.5, 0}));
  EXPECT_EQ(values<float>(linspace(3, 10, 1)), (std::vector<float>{3}));
  EXPECT_EQ(linspace(0, 10, 0).numel(), 0);
  EXPECT_EQ(values<int64_t>(linspace(0, 10, 4, kLong)), (std::vector<int64_t>{0, 3, 6, 10}));
  EXPECT_EQ(values<int32_t>(linspace(-5, 5, 4, kInt)), (std::vector<int32_t>{-5, -1, 1, 5}));
  std::vector<double> d = values<double>(linspace(0, 1, 10, kDouble));
  for (int i = 0; i < 10; ++i) EXPECT_NEAR(d[i], i / 9.0, 1e-15);
  EXPECT_EQ(d.front(), 0.0);
  EXPECT_EQ(d.back(), 1.0);
  EXPECT_THROW(linspace(0, 10, -1), ValueError);
  EXPECT_THROW(linspace(0, 1, 5, kBool), TypeError);
}

TEST(Factory, LogspaceMatchesClosedForm) {
  std::vector<float> v = values<float>(logspace(-2, 2, 5));
  std::vector<float> expect = {0.01f, 0.1f, 1.0f, 10.0f, 100.0f};
  for (size_t i = 0; i < v.size(); ++i) EXPECT_FLOAT_EQ(v[i], expect[i]);
  std::vector<double> p2 = values<double>(logspace(0, 10, 11, 2.0, kDouble));
  for (int i = 0; i <= 10; ++i) EXPECT_EQ(p2[i], std::ldexp(1.0, i));
  EXPECT_EQ(values<int32_t>(logspace(0, 3, 4, 2.0, kInt)), (std::vector<int32_t>{1, 2, 4, 8}));
  EXPECT_EQ(values<int64_t>(logspace(0, 3, 4, 10.0, kLong)),
            (std::vector<int64_t>{1, 10, 100, 1000}));
  EXPECT_THROW(logspace(0, 3, -1), ValueError);
}

TEST(Factory, Eye) {
  Tensor e = eye(3);
  EXPECT_EQ(e.dtype(), kFloat);
  EXPECT_EQ(e.sizes(), IntArrayRef({3, 3}));
  EXPECT_EQ(values<float>(e), (std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(values<int64_t>(eye(2, 3, kLong)), (std::vector<int64_t>{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values<int64_t>(eye(3, 2, kLong)), (std::vector<int64_t>{1, 0, 0, 1, 0, 0}));
  EXPECT_EQ(values<bool>(eye(2, kBool)), (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(eye(0).sizes(), IntArrayRef({0, 0}));
  EXPECT_THROW(eye(-1), ValueError);
  EXPECT_THROW(eye(2, -1), ValueError);
}

TEST(Factory, MetaFactoriesHaveShapesOnly) {
  TensorOptions meta = TensorOptions(Device(kMeta));
  Tensor a = arange(0, 10, 2, meta);
  EXPECT_TRUE(a.is_meta());
  EXPECT_EQ(a.sizes(), IntArrayRef({5}));
  EXPECT_EQ(a.dtype(), kLong);
  EXPECT_EQ(linspace(0, 1, 7, meta).sizes(), IntArrayRef({7}));
  EXPECT_EQ(logspace(0, 1, 3, 10.0, meta).sizes(), IntArrayRef({3}));
  EXPECT_EQ(eye(2, 5, meta).sizes(), IntArrayRef({2, 5}));
  EXPECT_THROW(arange(0, 10, 0, meta), ValueError);
}

TEST(Factory, TensorLiteralDtypes) {
  EXPECT_EQ(tensor({1, 2, 3}).dtype(), kLong);
  EXPECT_EQ(tensor({1.5, 2.5}).dtype(), kFloat);
  EXPECT_EQ(tensor({1.5f, 2.5f}).dtype(), kFloat);
  EXPECT_EQ(tensor({true, false}).dtype(), kBool);
  EXPECT_EQ(tensor({int64_t(1)}).dtype(), kLong);
  EXPECT_EQ(tensor({uint8_t(1), uint8_t(2)}).dtype(), kByte);
  EXPECT_EQ(tensor({int16_t(1)}).dtype(), kShort);
  EXPECT_EQ(tensor({Half(1.5f)}).dtype(), kHalf);
  EXPECT_EQ(tensor({1, 2}, kDouble).dtype(), kDouble);
  EXPECT_EQ(values<double>(tensor({1, 2}, kDouble)), (std::vector<double>{1, 2}));
  EXPECT_EQ(values<bool>(tensor({true, false})), (std::vector<bool>{true, false}));
  EXPECT_EQ(values<int64_t>(tensor({1, 2, 3})), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(as_float(tensor({Half(1.5f), Half(-2.0f)})), (std::vector<float>{1.5f, -2.0f}));
}

TEST(Factory, TensorLiteralShapes) {
  Tensor s = tensor(5);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.dtype(), kLong);
  EXPECT_EQ(s.item<int64_t>(), 5);
  EXPECT_EQ(tensor(2.5).dtype(), kFloat);
  EXPECT_EQ(tensor(2.5, kDouble).item<double>(), 2.5);
  Tensor m = tensor({{1, 2}, {3, 4}});
  EXPECT_EQ(m.sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(values<int64_t>(m), (std::vector<int64_t>{1, 2, 3, 4}));
  Tensor c = tensor({{{1.5}, {2.5}}, {{3.5}, {4.5}}, {{5.5}, {6.5}}});
  EXPECT_EQ(c.sizes(), IntArrayRef({3, 2, 1}));
  EXPECT_EQ(values<float>(c)[5], 6.5f);
  EXPECT_EQ(tensor({1}).sizes(), IntArrayRef({1}));
  EXPECT_EQ(tensor({{1}}).sizes(), IntArrayRef({1, 1}));
  Tensor empty_list = tensor({});
  EXPECT_EQ(empty_list.sizes(), IntArrayRef({0}));
  EXPECT_EQ(empty_list.dtype(), kFloat);
  EXPECT_EQ(tensor({{}, {}}).sizes(), IntArrayRef({2, 0}));
}

TEST(Factory, TensorLiteralErrors) {
  EXPECT_THROW(tensor({{1, 2}, {3}}), ValueError);
  EXPECT_THROW(tensor({{1, 2}, {3, 4, 5}}), ValueError);
  EXPECT_THROW(tensor({{{1}, {2}}, {3, 4}}), ValueError);
  EXPECT_THROW(tensor({1, 2.5}), TypeError);
  EXPECT_THROW(tensor({true, 1}), TypeError);
  try {
    tensor({{1, 2}, {3}});
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "tensor: Expected all sub-lists to have sizes: 2 (e.g. {1, 2}), but got "
                 "sub-list {3} with sizes: 1");
  }
}

TEST(Factory, TensorFromVectors) {
  std::vector<float> vf = {1.5f, 2.5f, 3.5f};
  Tensor a = tensor(vf);
  EXPECT_EQ(a.dtype(), kFloat);
  EXPECT_EQ(values<float>(a), vf);
  vf[0] = 9;  // copied, not aliased
  EXPECT_EQ(values<float>(a)[0], 1.5f);
  std::vector<int> vi = {4, 5};
  EXPECT_EQ(tensor(vi).dtype(), kLong);
  EXPECT_EQ(values<int64_t>(tensor(vi)), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(tensor(std::vector<double>{1, 2}).dtype(), kFloat);
  EXPECT_EQ(tensor(std::vector<double>{1, 2}, kDouble).dtype(), kDouble);
  EXPECT_EQ(tensor(std::vector<uint8_t>{7}).dtype(), kByte);
  bool flags[] = {true, false, true};
  EXPECT_EQ(values<bool>(tensor(ArrayRef<bool>(flags, 3))), (std::vector<bool>{true, false, true}));
  Tensor nested = tensor({std::vector<int>{1, 2}, std::vector<int>{3, 4}});
  EXPECT_EQ(nested.sizes(), IntArrayRef({2, 2}));
  EXPECT_EQ(values<int64_t>(nested), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(tensor(std::vector<float>{}).sizes(), IntArrayRef({0}));
}

TEST(Factory, FromBlobViewsCallerMemory) {
  float data[6] = {0, 1, 2, 3, 4, 5};
  Tensor t = from_blob(data, {2, 3});
  EXPECT_EQ(t.dtype(), kFloat);
  EXPECT_EQ(t.data_ptr(), static_cast<void*>(data));
  data[4] = 42;
  EXPECT_EQ(t.data_ptr<float>()[4], 42.0f);
  EXPECT_FALSE(t.storage()->resizable());
  int64_t ld[6] = {0, 1, 2, 3, 4, 5};
  Tensor s = from_blob(ld, {3, 2}, {1, 3}, kLong);  // a transposed [2, 3]
  EXPECT_EQ(s.strides(), IntArrayRef({1, 3}));
  EXPECT_FALSE(s.is_contiguous());
  EXPECT_EQ(values<int64_t>(s), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_THROW(from_blob(data, {2, -1}), ValueError);
  EXPECT_THROW(from_blob(data, {2, 3}, {1}), ValueError);
}

TEST(Factory, FromBlobDeleterRunsOnceWhenLastViewDies) {
  int calls = 0;
  void* seen = nullptr;
  auto* buf = new double[4]{1, 2, 3, 4};
  Tensor view;
  {
    Tensor t = from_blob(
        buf, {4},
        [&](void* p) {
          ++calls;
          seen = p;
          delete[] static_cast<double*>(p);
        },
        kDouble);
    Tensor copy = t;
    view = detail::make_view(t, {2}, {2}, 1);  // elements 1 and 3
    EXPECT_EQ(calls, 0);
  }
  EXPECT_EQ(calls, 0);  // the view still holds the storage
  EXPECT_EQ(values<double>(view), (std::vector<double>{2, 4}));
  view.reset();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen, static_cast<void*>(buf));

  int strided_calls = 0;
  float fl[4];
  {
    Tensor t = from_blob(fl, {2, 2}, {2, 1}, [&](void*) { ++strided_calls; });
  }
  EXPECT_EQ(strided_calls, 1);
  // Bad sizes: the tensor is never made and the caller keeps ownership (no deleter call).
  int bad_calls = 0;
  EXPECT_THROW(from_blob(fl, {-1}, [&](void*) { ++bad_calls; }), ValueError);
  EXPECT_EQ(bad_calls, 0);
}
