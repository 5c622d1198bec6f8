// libtorch's check and assert macros as a program using only <torch/torch.h> writes them:
// AT_ASSERT(M) and TORCH_CHECK_WITH/_ARG throw c10::Error subclasses; TORCH_CHECK_EQ and CHECK
// abort like LOG(FATAL). Also the standard names libtorch's <torch/torch.h> brings in.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const c10::Error& e) {
    return e.what();
  }
  return "no exception";
}

TEST(CompatMacros, AssertsThrowC10Errors) {
  AT_ASSERT(1 + 1 == 2);
  AT_ASSERT(true, "never shown");
  AT_ASSERTM(true, "never shown");
  EXPECT_THROW(AT_ASSERT(1 + 1 == 3), c10::Error);
  EXPECT_NE(message_of([] { AT_ASSERTM(false, "the value is ", 7); }).find("the value is 7"),
            std::string::npos);
  EXPECT_THROW(TORCH_CHECK_WITH(IndexError, false, "x"), c10::IndexError);
  EXPECT_THROW(TORCH_CHECK_WITH(TypeError, 2 < 1, "x"), c10::TypeError);
  EXPECT_EQ(message_of([] { TORCH_CHECK_ARG(false, 2, "must be positive"); }),
            "invalid argument 2: must be positive");
  EXPECT_THROW(C10_THROW_ERROR(NotImplementedError, "later"), c10::NotImplementedError);
  EXPECT_THROW(TORCH_CHECK_LINALG(false, "singular"), c10::Error);
}

TEST(CompatMacros, CheckOpsPassOrAbort) {
  int one = 1;
  TORCH_CHECK_EQ(one, 1) << "not shown";
  TORCH_CHECK_NE(one, 2);
  TORCH_CHECK_LT(one, 2);
  TORCH_CHECK_LE(one, 1);
  TORCH_CHECK_GT(one, 0);
  TORCH_CHECK_GE(one, 1);
  TORCH_DCHECK_EQ(one, 1);
  CHECK(one == 1);
  DCHECK(one == 1);
  EXPECT_EQ(TORCH_CHECK_NOTNULL(&one), &one);
  EXPECT_DEATH(TORCH_CHECK_EQ(one, 2) << "extra", "Check failed: one == 2 \\(1 vs. 2\\) extra");
  EXPECT_DEATH(CHECK(one > 1), "Check failed: one > 1");
  int* none = nullptr;
  EXPECT_DEATH(TORCH_CHECK_NOTNULL(none), "'none' Must be non NULL");
}

// Debian's libtorch is built with glog, so its headers bring glog's CHECK_EQ family as well.
TEST(CompatMacros, GlogCheckSpellings) {
  int one = 1;
  CHECK_EQ(one, 1) << "not shown";
  CHECK_NE(one, 2);
  CHECK_LT(one, 2);
  CHECK_LE(one, 1);
  CHECK_GT(one, 0);
  CHECK_GE(one, 1);
  DCHECK_EQ(one, 1);
  DCHECK_NE(one, 0);
  EXPECT_EQ(CHECK_NOTNULL(&one), &one);
  EXPECT_DEATH(CHECK_EQ(one, 2), "Check failed: one == 2 \\(1 vs. 2\\)");
  EXPECT_DEATH(CHECK_GT(one, 3) << "why", "Check failed: one > 3 \\(1 vs. 3\\) why");
}

TEST(CompatMacros, StandardNamesFromTorchHeader) {
  // Names a program gets from libtorch's <torch/torch.h> without including their headers.
  EXPECT_TRUE(std::isnan(std::nan("")));
  std::vector<int> v(4);
  std::iota(v.begin(), v.end(), 1);
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), 0), 10);
  std::ostringstream os;
  os << std::setprecision(2) << std::fixed << 1.0;
  EXPECT_EQ(os.str(), "1.00");
  std::set<int> s{3, 1};
  std::list<int> l{1};
  std::queue<int> q;
  std::stack<int> st;
  std::bitset<3> b(5);
  EXPECT_EQ(s.size() + l.size() + q.size() + st.size() + b.count(), 5u);
  EXPECT_EQ(std::type_index(typeid(int)), std::type_index(typeid(int)));
}

// <torch/torch.h> brings <torch/version.h>: programs test the version with #if.
TEST(CompatMacros, TorchVersionMacros) {
#if TORCH_VERSION_MAJOR == 1 && TORCH_VERSION_MINOR >= 13
  EXPECT_STREQ(TORCH_VERSION, "1.13.0");
#else
  FAIL() << "TORCH_VERSION_MAJOR/MINOR are not libtorch 1.13's";
#endif
  EXPECT_EQ(TORCH_VERSION_PATCH, 0);
}

}  // namespace
