// Registering backend pieces and kernels: the accelerator API over the npu, and the errors for
// registering twice, unknown ops, wrong signatures, libraries that fail to load.
#include <ATen/DeviceAccelerator.h>
#include <torch/library.h>

#include <map>
#include <string>
#include <vector>

#include "support/npu_fixture.h"

namespace brasa::testing {
namespace {

using NpuRegistration = NpuTest;

TEST_F(NpuRegistration, TheAcceleratorIsTheNpu) {
  ASSERT_TRUE(accelerator::current_accelerator().has_value());
  EXPECT_EQ(accelerator::current_accelerator()->str(), "npu");  // no index
  EXPECT_EQ(accelerator::current_accelerator(true)->str(), "npu");
  EXPECT_TRUE(accelerator::is_available());
  EXPECT_EQ(accelerator::device_count(), 2);
  EXPECT_EQ(accelerator::current_device_index(), 0);
  {
    accelerator::DeviceIndexGuard guard(1);
    EXPECT_EQ(accelerator::current_device_index(), 1);
    EXPECT_EQ(empty({2}, TensorOptions(kFloat).device(Device("npu"))).device().str(), "npu:1");
    // A fallen-back factory follows the current device too.
    EXPECT_EQ(arange(3, TensorOptions(kFloat).device(Device("npu"))).device().str(), "npu:1");
    accelerator::synchronize();
  }
  EXPECT_EQ(accelerator::current_device_index(), 0);
  accelerator::set_device_index(-1);  // negative: no change
  EXPECT_EQ(accelerator::current_device_index(), 0);
  EXPECT_THROW(accelerator::set_device_index(2), ValueError);
  EXPECT_THROW(accelerator::set_device_index(Device("cpu")), ValueError);
  accelerator::set_device_index(Device("npu:1"));
  EXPECT_EQ(accelerator::current_device_index(), 1);
  accelerator::set_device_index(0);
  EXPECT_EQ(at::accelerator::deviceCount(), 2);
  EXPECT_EQ(at::accelerator::getAccelerator().value(), kPrivateUse1);
}

TEST_F(NpuRegistration, PiecesRegisterOnce) {
  static struct : Allocator {
    DataPtr allocate(size_t) override { return DataPtr(); }
  } other;
  try {
    backend::register_allocator(kPrivateUse1, &other, "test");
    ADD_FAILURE() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("libbrasa_npu"), std::string::npos) << e.what();
  }
  EXPECT_THROW(backend::register_allocator(kCPU, &other, "test"), ValueError);
  EXPECT_THROW(backend::register_allocator(kCUDA, &other, "test"), ValueError);
}

BRASA_DECLARE_OP(test_twice_op, "test::backend_twice", "test::backend_twice(Tensor self) -> Tensor",
                 Tensor(const Tensor&));
BRASA_DEFINE_OP(test_twice_op)
Tensor twice_cpu(const Tensor& self) { return self * 2; }
BRASA_REGISTER_KERNEL(test_twice_op, twice_cpu, CPU)
Tensor twice_npu(const Tensor& self) { return self + self; }
Tensor wrong_type(const Tensor& self, const Tensor&) { return self; }

TEST_F(NpuRegistration, NativeKernelsAreCheckedByNameTypeAndCount) {
  backend::Library lib(DispatchKey::PrivateUse1, "test");
  lib.impl<&twice_npu>("test::backend_twice");
  Tensor a = full({3}, 1.5).to(npu);
  EXPECT_TRUE(bitwise_equal(test_twice_op().call(a), full({3}, 3.0)));
  EXPECT_TRUE(backend::fallback_report().empty());
  EXPECT_THROW(lib.impl<&twice_npu>("test::backend_twice"), ValueError);  // twice
  EXPECT_THROW(lib.impl<&twice_npu>("no_such_op"), ValueError);
  try {
    lib.impl<&wrong_type>("hypot");
    ADD_FAILURE() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("hypot(Tensor self"), std::string::npos) << e.what();
  }
  EXPECT_THROW(lib.impl<&twice_npu>("add"), ValueError);  // the npu gave add aten kernels
  EXPECT_THROW(backend::Library(DispatchKey::CPU), ValueError);
}

at::Tensor aten_sub(const at::Tensor& a, const at::Tensor&, const at::Scalar&) { return a; }
at::Tensor aten_sub_wrong(const at::Tensor& a, const at::Tensor&) { return a; }

TEST_F(NpuRegistration, AtenKernelsAreCheckedByNameSignatureAndCount) {
  torch::Library m(torch::Library::IMPL, "aten", DispatchKey::PrivateUse1, __FILE__, __LINE__);
  try {
    m.impl("no_such.overload", TORCH_FN(aten_sub));
    ADD_FAILURE() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such.overload"), std::string::npos) << e.what();
  }
  try {
    m.impl("sub.Tensor", TORCH_FN(aten_sub_wrong));
    ADD_FAILURE() << "expected ValueError";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("Tensor(Tensor, Tensor, Scalar)"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(m.impl("mul.Tensor", TORCH_FN(aten_sub_wrong)), ValueError);  // the npu's
  EXPECT_EQ(backend::aten_signature("aten::add.out"), "Tensor(Tensor, Tensor, Scalar, Tensor)");
  EXPECT_GT(backend::aten_names().size(), 100u);
}

// The table is derived from the op declarations (Note [aten forms]); check_aten_table compares all
// of it with PyTorch's schemas, this checks what the dispatch relies on.
TEST(AtenTable, OverloadsComeFromTheDeclarations) {
  EXPECT_EQ(backend::aten_signature("eq.Tensor_out"), "Tensor(Tensor, Tensor, Tensor)");
  EXPECT_EQ(backend::aten_signature("eq.Scalar"), "Tensor(Tensor, Scalar)");
  EXPECT_EQ(backend::aten_signature("max.dim"), "(Tensor, Tensor)(Tensor, int, bool)");
  EXPECT_EQ(backend::aten_signature("empty_strided"),
            "Tensor(int[], int[], ScalarType?, Layout?, Device?, bool?)");
  EXPECT_EQ(backend::aten_signature("div.Tensor_mode"), "Tensor(Tensor, Tensor, str?)");
  EXPECT_THROW(backend::aten_signature("squeeze.dims"), ValueError);  // none: not in aten 1.13
  std::map<std::string, backend::AtenOverload> by_name;
  std::vector<std::string> addmm;
  for (const backend::AtenOverload& o : backend::aten_overloads()) {
    EXPECT_TRUE(by_name.emplace(o.name, o).second) << o.name << " twice";
    if (o.op == "addmm") addmm.push_back(o.name);
  }
  EXPECT_EQ(addmm, (std::vector<std::string>{"mm", "addmm"}));  // the narrower first
  EXPECT_EQ(by_name.at("mm").when, "self=None alpha=1");
  EXPECT_EQ(by_name.at("add_.Scalar").when, "out=self other=number");
  EXPECT_EQ(by_name.at("mul.out").when, "alpha=1 out=given");
  EXPECT_EQ(by_name.at("flip").when, "");
  EXPECT_EQ(by_name.at("prod.dim_int").signature, "Tensor(Tensor, int, bool, ScalarType?)");
  EXPECT_EQ(by_name.at("prod.dim_int").when, "out=None dim=single");
  EXPECT_EQ(backend::aten_names().size(), by_name.size());
}

// A derived overload with constants: brasa's div_trunc is aten's div.Tensor_mode with
// rounding_mode 'trunc' (its BRASA_ATEN statement), which reaches the kernel as a string_view.
std::string seen_mode;
at::Tensor npu_div_mode(const at::Tensor& a, const at::Tensor& b,
                        c10::optional<c10::string_view> mode) {
  seen_mode = mode ? std::string(*mode) : "None";
  return at::div(a.cpu(), b.cpu(), mode).to(a.device());
}

TEST_F(NpuRegistration, DerivedOverloadsPassTheirConstants) {
  torch::Library m(torch::Library::IMPL, "aten", DispatchKey::PrivateUse1, __FILE__, __LINE__);
  m.impl("div.Tensor_mode", TORCH_FN(npu_div_mode));
  Tensor a = tensor({7.0, -7.0, 5.0}).to(npu), b = full({3}, 2.0).to(npu);
  Tensor r = div(a, b, "trunc");
  EXPECT_EQ(seen_mode, "trunc");
  EXPECT_EQ(r.device(), a.device());
  EXPECT_TRUE(bitwise_equal(r.cpu(), tensor({3.0, -3.0, 2.0})));
  seen_mode.clear();
  Tensor floor = div(a, b, "floor");  // floor_divide, another op: not this kernel
  EXPECT_EQ(seen_mode, "");
  EXPECT_TRUE(bitwise_equal(floor.cpu(), tensor({3.0, -4.0, 2.0})));
}

TEST_F(NpuRegistration, LoadErrorsNameThePathAndTheReason) {
  try {
    backend::load_backend("/nonexistent/libfoo.so");
    ADD_FAILURE() << "expected ValueError";
  } catch (const ValueError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("/nonexistent/libfoo.so"), std::string::npos) << m;
    EXPECT_NE(m.find("No such file"), std::string::npos) << m;
  }
#ifdef BRASA_BAD_BACKEND_LIBRARY
  try {
    backend::load_backend(BRASA_BAD_BACKEND_LIBRARY);
    ADD_FAILURE() << "expected ValueError";
  } catch (const ValueError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find(BRASA_BAD_BACKEND_LIBRARY), std::string::npos) << m;
    EXPECT_NE(m.find("not.an.op"), std::string::npos) << m;
  }
#endif
  EXPECT_NO_THROW(load_npu());  // loading the same library again is a no-op
}

}  // namespace
}  // namespace brasa::testing
