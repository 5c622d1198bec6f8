// The error hierarchy (Note [Error hierarchy] in docs/distributed.md): one thrown object is caught
// as its kind, as brasa::Error / c10::Error, as its standard type and as std::exception.
#include <gtest/gtest.h>

#include <stdexcept>
#include <system_error>

#include "brasa/brasa.h"
#include "c10/util/Exception.h"
#include "support/caught_as.h"

using namespace brasa;

namespace {

static_assert(!std::is_base_of_v<std::exception, Error>);
static_assert(std::is_base_of_v<std::runtime_error, ValueError>);
static_assert(!std::is_base_of_v<std::system_error, ValueError>);
static_assert(std::is_base_of_v<Error, RuntimeError>);

using brasa::testing::caught_as;

std::exception_ptr thrown_by(void (*f)()) {
  try {
    f();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

TEST(ErrorHierarchy, AKindIsCaughtAsItselfAsErrorAndAsItsStandardTypes) {
  const auto e = thrown_by([] { BRASA_CHECK(false, "sum: expected a dim, got ", 3); });
  const void* object = caught_as<ValueError>(e);
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(caught_as<Error>(e), object);
  EXPECT_EQ(caught_as<c10::Error>(e), object);
  EXPECT_EQ(caught_as<std::runtime_error>(e), object);
  EXPECT_EQ(caught_as<std::exception>(e), object);
  EXPECT_EQ(caught_as<std::system_error>(e), nullptr);
  EXPECT_EQ(caught_as<IndexError>(e), nullptr);
  try {
    std::rethrow_exception(e);
  } catch (const Error& err) {  // what() through brasa::Error and through std::exception agree
    EXPECT_STREQ(err.what(), "sum: expected a dim, got 3");
    EXPECT_STREQ(dynamic_cast<const std::exception&>(err).what(), err.what());
  }
}

TEST(ErrorHierarchy, AtErrorAndInternalAssertsAreErrors) {
  const auto at = thrown_by([] { AT_ERROR("no kernel for ", "Int"); });
  EXPECT_NE(caught_as<c10::Error>(at), nullptr);
  EXPECT_NE(caught_as<std::runtime_error>(at), nullptr);
  const auto internal = thrown_by([] { BRASA_INTERNAL_ASSERT(1 == 2, "bug"); });
  EXPECT_NE(caught_as<InternalError>(internal), nullptr);
  EXPECT_NE(caught_as<std::exception>(internal), nullptr);
}

}  // namespace
