// Tests that need the process's registries as libbrasa leaves them (no backend loaded, no slot
// taken): a binary of their own, so a whole-binary run of brasa_tests (which loads the npu backend)
// cannot disturb them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "brasa/backend/backend.h"
#include "brasa/brasa.h"
#include "brasa/dispatch/dispatcher.h"

using namespace brasa;

namespace {
std::vector<std::string> g_fallback_ops;
void recording_fallback(const OperatorHandle& op, DispatchKeySet, Stack& stack) {
  g_fallback_ops.push_back(op.name());
  Tensor first = stack[0].tensor();
  stack.clear();
  stack.emplace_back(first);
}
class MallocAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t n) override {
    void* p = std::malloc(n ? n : 1);
    return DataPtr(p, nullptr, [](void*, void* q) { std::free(q); });
  }
};
}  // namespace

TEST(Dispatcher, BackendFallbackServesOpsWithoutKernels) {
  // Uses the PrivateUse1 slot with an allocator of its own, which needs a process where no backend
  // holds it: this binary loads none.
  ASSERT_FALSE(backend::is_registered(kPrivateUse1));
  static MallocAllocator alloc;
  set_allocator(kPrivateUse1, &alloc);
  set_backend_fallback(DispatchKey::PrivateUse1, &recording_fallback);
  Tensor a = empty({2}, Device(kPrivateUse1));
  EXPECT_TRUE(a.is_privateuseone());
  Tensor r = a * a;  // mul has no PrivateUse1 kernel: the boxed fallback serves it
  EXPECT_TRUE(r.is_same(a));
  ASSERT_EQ(g_fallback_ops.size(), 1u);
  EXPECT_EQ(g_fallback_ops[0], "mul");
  set_backend_fallback(DispatchKey::PrivateUse1, nullptr);
  EXPECT_THROW(a * a, NotImplementedError);
}
