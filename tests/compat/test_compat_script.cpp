// <torch/script.h> (Note [No TorchScript]): a program that loads a TorchScript model compiles, and
// the load throws a c10::NotImplementedError that says brasa has no TorchScript and what to use.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "torch/script.h"

namespace {

std::string load_error(const std::string& path) {
  try {
    torch::jit::script::Module module = torch::jit::load(path);
    std::vector<torch::jit::IValue> inputs{torch::ones({1, 3})};
    (void)module.forward(inputs).toTensor();
  } catch (const c10::Error& e) {
    return e.what();
  }
  return "";
}

TEST(CompatScript, LoadThrowsNotImplementedNamingTheFile) {
  EXPECT_THROW(torch::jit::load("model.pt"), c10::NotImplementedError);
  std::string msg = load_error("traced_resnet.pt");
  EXPECT_NE(msg.find("torch::jit::load(\"traced_resnet.pt\")"), std::string::npos) << msg;
  EXPECT_NE(msg.find("no TorchScript"), std::string::npos) << msg;
  EXPECT_NE(msg.find("safetensors"), std::string::npos) << msg;
  std::istringstream in("PK");
  EXPECT_THROW(torch::jit::load(in), c10::NotImplementedError);
}

TEST(CompatScript, ModuleMethodsThrowToo) {
  torch::jit::Module m;
  EXPECT_THROW(m.eval(), c10::NotImplementedError);
  EXPECT_THROW(m.to(torch::kCPU), c10::NotImplementedError);
  EXPECT_THROW(m({torch::ones({2})}), c10::NotImplementedError);
}

}  // namespace
