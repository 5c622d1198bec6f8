// nn::utils::call and set_forward_override: the module's own forward without an override, the
// override with one, removal, and no override inherited by a module allocated where a destroyed
// one lived.
#include <gtest/gtest.h>

#include "brasa/brasa.h"
#include "brasa/nn/utils/forward_override.h"

using namespace brasa;
namespace utils = brasa::nn::utils;

TEST(ForwardOverride, CallRunsTheOverrideWhileItIsInstalled) {
  nn::Linear lin(2, 3);
  const Tensor x = ones({4, 2});
  EXPECT_TRUE(utils::call(lin, x).equal(lin->forward(x)));
  std::weak_ptr<nn::Module> weak = lin.ptr();
  utils::set_forward_override(*lin, [weak](const Tensor& t) { return t * 2; });
  EXPECT_TRUE(utils::forward_override(*lin) != nullptr);
  EXPECT_TRUE(utils::call(lin, x).equal(x * 2));
  nn::LinearImpl* raw = lin.get();
  EXPECT_TRUE(utils::call(raw, x).equal(x * 2));  // by pointer too
  EXPECT_TRUE(lin->forward(x).equal(lin(x)));     // the module's own forward is unchanged
  utils::set_forward_override(*lin, nullptr);
  EXPECT_TRUE(utils::call(lin, x).equal(lin->forward(x)));
}

TEST(ForwardOverride, ADestroyedModulesOverrideIsNotInherited) {
  const Tensor x = ones({1, 2});
  for (int i = 0; i < 20; ++i) {  // addresses are often reused: each new module starts clean
    nn::Linear lin(2, 2);
    EXPECT_FALSE(static_cast<bool>(utils::forward_override(*lin)));
    utils::set_forward_override(*lin, [](const Tensor& t) { return t * 0; });
    EXPECT_TRUE(utils::call(lin, x).equal(zeros({1, 2})));
  }
}

TEST(ForwardOverride, AModuleNotOwnedByASharedPtrIsRefused) {
  nn::LinearImpl plain(nn::LinearOptions(2, 2));
  EXPECT_THROW(utils::set_forward_override(plain, [](const Tensor& t) { return t; }), ValueError);
}

// What an override captures (tensor parallel's process group, and through it a TCPStore server
// and its threads) is released when its module is destroyed, not at some later
// set_forward_override: the registry outlives every module.
TEST(ForwardOverride, AnOverrideGoesWithItsModule) {
  auto held = std::make_shared<int>(7);
  std::weak_ptr<int> watch = held;
  {
    nn::Linear lin(2, 2);
    utils::set_forward_override(*lin, [held](const Tensor& t) { return t * *held; });
    held.reset();
    EXPECT_FALSE(watch.expired());  // the registry's copy of the override holds it
  }
  EXPECT_TRUE(watch.expired());
}
