// c10 utilities libtorch programs and tests lean on: c10::str, c10::Join, c10::to_string,
// c10::Error's accessors, and the warning handler (Note [c10 warning handlers]).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "brasa/core/warning.h"
#include "c10/util/Exception.h"
#include "c10/util/StringUtil.h"
#include "c10/util/string_utils.h"
#include "torch/torch.h"

namespace {

struct Capture : c10::WarningHandler {
  void process(const c10::SourceLocation& loc, const std::string& msg, const bool) override {
    messages.push_back(msg);
    functions.push_back(loc.function);
    lines.push_back(loc.line);
  }
  std::vector<std::string> messages, functions;
  std::vector<uint32_t> lines;
};

void warn_twice_once() {
  for (int i = 0; i < 2; ++i) TORCH_WARN_ONCE("only once ", i);
}

TEST(CompatC10Util, StrJoinToString) {
  EXPECT_EQ(c10::str("a", 1, '-', 2.5), "a1-2.5");
  EXPECT_EQ(c10::str(), "");
  EXPECT_EQ(c10::Join(", ", std::vector<int>{1, 2, 3}), "1, 2, 3");
  EXPECT_EQ(c10::Join("+", std::vector<std::string>{}), "");
  EXPECT_EQ(c10::to_string(42), "42");
  c10::SourceLocation loc{"f", "x.cpp", 7};
  EXPECT_EQ(c10::str(loc), "f at x.cpp:7");
}

// libtorch reaches c10's names through at:: and torch:: too; pytorch/examples' cpp/dcgan names its
// sample files with torch::str("dcgan-sample-", n, ".pt").
TEST(CompatC10Util, StrAndJoinUnderTorchAndAt) {
  EXPECT_EQ(torch::str("dcgan-sample-", 3, ".pt"), "dcgan-sample-3.pt");
  EXPECT_EQ(at::str(1, 'x'), "1x");
  EXPECT_EQ(torch::Join("/", std::vector<int>{4, 5}), "4/5");
  EXPECT_EQ(at::Join("", std::vector<std::string>{"a", "b"}), "ab");
}

TEST(CompatC10Util, ErrorAccessors) {
  try {
    TORCH_CHECK(false, "bad value ", 3);
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg(), "bad value 3");
    EXPECT_STREQ(e.what_without_backtrace(), e.what());
    EXPECT_EQ(e.backtrace(), "");
    return;
  }
  FAIL() << "TORCH_CHECK did not throw";
}

TEST(CompatC10Util, WarningHandlerCapturesTorchWarnAndBrasaWarnings) {
  Capture capture;
  {
    c10::Warning::WarningHandlerGuard guard(&capture);
    EXPECT_EQ(c10::Warning::get_warning_handler(), &capture);
    int line = __LINE__ + 1;
    TORCH_WARN("value ", 7, " is odd");
    brasa::warn("from the library");
    ASSERT_EQ(capture.messages.size(), 2u);
    EXPECT_EQ(capture.messages[0], "value 7 is odd");
    EXPECT_EQ(capture.lines[0], static_cast<uint32_t>(line));
    EXPECT_EQ(capture.functions[0], std::string("TestBody"));
    EXPECT_EQ(capture.messages[1], "from the library");
    EXPECT_EQ(capture.functions[1], std::string("brasa"));
  }
  EXPECT_NE(c10::Warning::get_warning_handler(), &capture);
  TORCH_WARN("goes to stderr");  // the default handler again
  EXPECT_EQ(capture.messages.size(), 2u);
}

TEST(CompatC10Util, WarnOnceAndWarnAlways) {
  Capture capture;
  c10::WarningUtils::WarningHandlerGuard guard(&capture);
  warn_twice_once();
  warn_twice_once();
  EXPECT_EQ(capture.messages, std::vector<std::string>{"only once 0"});
  EXPECT_EQ(capture.functions[0], std::string("warn_twice_once"));
  {
    c10::Warning::WarnAlways always;
    warn_twice_once();
  }
  EXPECT_EQ(capture.messages.size(), 3u);
  EXPECT_EQ(capture.messages.back(), "only once 1");
}

}  // namespace
