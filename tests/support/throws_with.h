#pragma once
// EXPECT_THROWS_CONTAINING(type, statement, text): statement throws `type`, and its message
// contains text (libtorch's tests match the words of messages this way, ASSERT_THROWS_WITH).
#include <gtest/gtest.h>

#include <exception>
#include <string>

namespace brasa::testing {

/// The message of the exception `fn` throws (empty when it throws none).
template <typename Fn>
std::string thrown_message(Fn&& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace brasa::testing

#define EXPECT_THROWS_CONTAINING(type, statement, text)                                       \
  do {                                                                                        \
    EXPECT_THROW((void)(statement), type);                                                    \
    const std::string message = ::brasa::testing::thrown_message([&] { (void)(statement); }); \
    EXPECT_NE(message.find(text), std::string::npos) << "message: " << message;               \
  } while (false)
