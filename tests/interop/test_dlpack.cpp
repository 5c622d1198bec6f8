#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "ATen/DLConvertor.h"
#include "brasa/brasa.h"
#include "brasa/dlpack.h"

using namespace brasa;

namespace {

// A hand-written producer, as a C library would build it: the buffer, shape and strides live in
// one heap block whose deleter counts its calls.
int g_deleted = 0;

struct Produced {
  std::vector<uint8_t> buffer;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  DLManagedTensorVersioned versioned{};
  DLManagedTensor legacy{};
};

void delete_versioned(DLManagedTensorVersioned* self) {
  ++g_deleted;
  delete static_cast<Produced*>(self->manager_ctx);
}
void delete_legacy(DLManagedTensor* self) {
  ++g_deleted;
  delete static_cast<Produced*>(self->manager_ctx);
}

Produced* produce(DLDataType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides,
                  size_t nbytes, uint64_t byte_offset = 0) {
  auto* p = new Produced;
  p->buffer.resize(nbytes + byte_offset);
  for (size_t i = 0; i < p->buffer.size(); ++i) p->buffer[i] = static_cast<uint8_t>(i);
  p->shape = std::move(shape);
  p->strides = std::move(strides);
  DLTensor dl{};
  dl.data = p->buffer.data();
  dl.device = {kDLCPU, 0};
  dl.ndim = static_cast<int32_t>(p->shape.size());
  dl.dtype = dtype;
  dl.shape = p->shape.data();
  dl.strides = p->strides.empty() ? nullptr : p->strides.data();
  dl.byte_offset = byte_offset;
  p->versioned = {{1, 1}, p, &delete_versioned, 0, dl};
  p->legacy = {dl, p, &delete_legacy};
  return p;
}

class DLPack : public ::testing::Test {
 protected:
  void SetUp() override { g_deleted = 0; }
};

}  // namespace

TEST_F(DLPack, ExportDescribesTheTensor) {
  Tensor t = arange(24, kFloat).reshape({2, 3, 4}).transpose(0, 2).slice(1, 1, 3);
  DLManagedTensorVersioned* m = to_dlpack_versioned(t);
  EXPECT_EQ(m->version.major, 1u);
  EXPECT_EQ(m->version.minor, 1u);
  EXPECT_EQ(m->flags, 0u);
  EXPECT_EQ(m->dl_tensor.data, t.data_ptr());
  EXPECT_EQ(m->dl_tensor.byte_offset, 0u);
  EXPECT_EQ(m->dl_tensor.device.device_type, kDLCPU);
  EXPECT_EQ(m->dl_tensor.device.device_id, 0);
  ASSERT_EQ(m->dl_tensor.ndim, 3);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(m->dl_tensor.shape[d], t.size(d));
    EXPECT_EQ(m->dl_tensor.strides[d], t.stride(d));
  }
  EXPECT_EQ(m->dl_tensor.dtype.code, kDLFloat);
  EXPECT_EQ(m->dl_tensor.dtype.bits, 32);
  EXPECT_EQ(m->dl_tensor.dtype.lanes, 1);
  m->deleter(m);
}

TEST_F(DLPack, ExportKeepsStorageAliveAndNormalizesSizeOneStrides) {
  DLManagedTensorVersioned* m = nullptr;
  {
    Tensor t = arange(6, kLong).reshape({6, 1}).expand({6, 1}).transpose(0, 1);
    m = to_dlpack_versioned(t);
  }
  EXPECT_EQ(m->dl_tensor.strides[0], 1);  // size-1 dim
  EXPECT_EQ(m->dl_tensor.strides[1], 1);
  EXPECT_EQ(static_cast<int64_t*>(m->dl_tensor.data)[5], 5);
  m->deleter(m);
}

TEST_F(DLPack, ExportFlags) {
  Tensor t = arange(6, kInt).reshape({2, 3}).t();
  DLManagedTensorVersioned* ro = to_dlpack_versioned(t, DLPACK_FLAG_BITMASK_READ_ONLY);
  EXPECT_EQ(ro->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  EXPECT_EQ(ro->dl_tensor.data, t.data_ptr());
  ro->deleter(ro);
  DLManagedTensorVersioned* copied = to_dlpack_versioned(t, DLPACK_FLAG_BITMASK_IS_COPIED);
  EXPECT_EQ(copied->flags, DLPACK_FLAG_BITMASK_IS_COPIED);
  EXPECT_NE(copied->dl_tensor.data, t.data_ptr());
  EXPECT_EQ(copied->dl_tensor.strides[0], 2);  // contiguous copy of the [3, 2] transpose
  Tensor back = from_dlpack(copied);
  EXPECT_TRUE(equal(back, t));
  EXPECT_THROW(to_dlpack_versioned(t, 1u << 5), ValueError);
  EXPECT_THROW(to_dlpack_versioned(Tensor()), ValueError);
  EXPECT_THROW(to_dlpack_versioned(empty({2}, TensorOptions(kFloat).device(kMeta))), ValueError);
}

TEST_F(DLPack, RoundTripIsZeroCopyForEveryDtype) {
  const std::array<ScalarType, 10> dtypes = {kBool, kByte, kChar,  kShort,  kInt,
                                             kLong, kHalf, kFloat, kDouble, kBFloat16};
  for (ScalarType dtype : dtypes) {
    Tensor t = arange(12).reshape({3, 4}).to(dtype).slice(1, 1, 4, 2);
    Tensor back = from_dlpack(to_dlpack_versioned(t));
    EXPECT_EQ(back.scalar_type(), dtype);
    EXPECT_EQ(back.data_ptr(), t.data_ptr());
    EXPECT_EQ(back.sizes(), t.sizes());
    EXPECT_EQ(back.strides(), t.strides());
    EXPECT_TRUE(equal(back, t)) << dtype;
    Tensor legacy = at::fromDLPack(at::toDLPack(t));
    EXPECT_EQ(legacy.data_ptr(), t.data_ptr());
    EXPECT_TRUE(equal(legacy, t)) << dtype;
  }
}

TEST_F(DLPack, ZeroDimAndEmptyTensors) {
  Tensor scalar = full({}, 3.5, kDouble);
  Tensor back = from_dlpack(to_dlpack_versioned(scalar));
  EXPECT_EQ(back.dim(), 0);
  EXPECT_EQ(back.item<double>(), 3.5);
  Tensor none = empty({0, 3}, kFloat);
  Tensor back_none = at::fromDLPackVersioned(at::toDLPackVersioned(none));
  EXPECT_EQ(back_none.sizes(), IntArrayRef({0, 3}));
  // A producer may pass NULL data for a size-0 tensor.
  Produced* p = produce({kDLFloat, 32, 1}, {4, 0}, {}, 0);
  p->versioned.dl_tensor.data = nullptr;
  EXPECT_EQ(from_dlpack(&p->versioned).numel(), 0);
  EXPECT_EQ(g_deleted, 1);
}

TEST_F(DLPack, ImportRunsTheDeleterOnceAfterTheLastView) {
  Produced* p = produce({kDLInt, 32, 1}, {2, 3}, {}, 24, 8);
  const void* expected = p->buffer.data() + 8;
  Tensor view;
  {
    Tensor t = from_dlpack(&p->versioned);
    EXPECT_EQ(t.data_ptr(), expected);  // byte_offset added, NULL strides = row-major
    EXPECT_EQ(t.strides(), IntArrayRef({3, 1}));
    view = t.select(0, 1);
  }
  EXPECT_EQ(g_deleted, 0);
  int32_t first = 0;
  std::memcpy(&first, static_cast<const uint8_t*>(expected) + 12, 4);
  EXPECT_EQ(view.data_ptr<int32_t>()[0], first);
  view = Tensor();
  EXPECT_EQ(g_deleted, 1);
}

TEST_F(DLPack, ImportHonoursStridesAndLegacyStructs) {
  Produced* p = produce({kDLUInt, 8, 1}, {3, 2}, {1, 3}, 6);
  Tensor t = from_dlpack(&p->legacy);
  EXPECT_EQ(t.strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(t.index({1, 1}).item<int64_t>(), 4);
  t = Tensor();
  EXPECT_EQ(g_deleted, 1);
  Produced* q = produce({kDLFloat, 64, 1}, {2}, {}, 16);
  q->legacy.deleter = nullptr;  // NULL deleter: nothing to release
  Tensor u = from_dlpack(&q->legacy);
  u = Tensor();
  delete q;
  EXPECT_EQ(g_deleted, 1);
}

TEST_F(DLPack, ReadOnlyImportCopiesUnlessAViewIsAllowed) {
  Produced* p = produce({kDLInt, 16, 1}, {4}, {}, 8);
  p->versioned.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  const void* producer_data = p->buffer.data();
  int16_t second = 0;
  std::memcpy(&second, p->buffer.data() + 2, 2);
  Tensor copy = from_dlpack(&p->versioned);
  EXPECT_EQ(g_deleted, 1);  // released at once
  EXPECT_NE(copy.data_ptr(), producer_data);
  EXPECT_EQ(copy.data_ptr<int16_t>()[1], second);
  Produced* q = produce({kDLInt, 16, 1}, {4}, {}, 8);
  q->versioned.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  Tensor view = from_dlpack(&q->versioned, /*allow_read_only_view=*/true);
  EXPECT_EQ(view.data_ptr(), q->buffer.data());
  view = Tensor();
  EXPECT_EQ(g_deleted, 2);
}

TEST_F(DLPack, BadInputThrowsAndReleasesTheProducerOnce) {
  auto expect_rejected = [](Produced* p, const char* fragment) {
    const int before = g_deleted;
    try {
      from_dlpack(&p->versioned);
      ADD_FAILURE() << "accepted: " << fragment;
    } catch (const ValueError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
    EXPECT_EQ(g_deleted, before + 1) << fragment;
  };
  Produced* p = produce({kDLFloat, 32, 1}, {2}, {}, 8);
  p->versioned.version = {2, 0};
  expect_rejected(p, "version 2.0");
  expect_rejected(produce({kDLFloat, 32, 2}, {2}, {}, 16), "lanes = 2");
  expect_rejected(produce({kDLFloat, 8, 1}, {2}, {}, 2), "code 2, bits 8");
  expect_rejected(produce({kDLComplex, 64, 1}, {2}, {}, 16), "code 5");
  p = produce({kDLFloat, 32, 1}, {2}, {}, 8);
  p->versioned.dl_tensor.device = {kDLCUDA, 0};
  expect_rejected(p, "CPU");
  p = produce({kDLFloat, 32, 1}, {2}, {}, 8);
  p->versioned.dl_tensor.ndim = -1;
  expect_rejected(p, "ndim");
  p = produce({kDLFloat, 32, 1}, {-2}, {}, 8);
  expect_rejected(p, "from_blob");
  EXPECT_THROW(from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr)), ValueError);
  // The legacy path releases on error too.
  Produced* q = produce({kDLInt, 64, 4}, {2}, {}, 64);
  EXPECT_THROW(from_dlpack(&q->legacy), ValueError);
  EXPECT_EQ(g_deleted, 8);
}
