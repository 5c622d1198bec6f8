#include <gtest/gtest.h>

#include "brasa/brasa.h"
#include "brasa/serialize/ivalue.h"

namespace brasa {
namespace {

TEST(PickleIValue, ScalarsAndKinds) {
  EXPECT_TRUE(IValue().isNone());
  EXPECT_TRUE(IValue(true).toBool());
  EXPECT_EQ(IValue(3).toInt(), 3);
  EXPECT_EQ(IValue(int64_t{1} << 40).toInt(), int64_t{1} << 40);
  EXPECT_EQ(IValue(2.5).toDouble(), 2.5);
  EXPECT_EQ(IValue("ab").toStringRef(), "ab");
  EXPECT_EQ(IValue(std::string("cd")).tagKind(), "String");
  EXPECT_TRUE(IValue(ones({2})).isTensor());
  try {
    IValue(3).toStringRef();
    FAIL();
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("expected String, got Int"), std::string::npos);
  }
}

TEST(PickleIValue, ListTupleDict) {
  IValue l(std::vector<IValue>{1, "x"});
  ASSERT_TRUE(l.isList());
  GenericList shared = l.toList();
  shared.push_back(2.0);
  EXPECT_EQ(l.toListRef().size(), 3u);
  IValue t = IValue::tuple({1, 2, 3});
  EXPECT_EQ(t.toTupleRef().elements().size(), 3u);
  EXPECT_EQ(t.toTuple()->elements()[2].toInt(), 3);
  EXPECT_EQ(t.toIntVector(), (std::vector<int64_t>{1, 2, 3}));

  GenericDict d;
  EXPECT_TRUE(d.insert("b", 1).second);
  EXPECT_TRUE(d.insert("a", 2).second);
  EXPECT_FALSE(d.insert("b", 5).second);
  d.insert_or_assign("a", 7);
  d.insert(3, "three");
  IValue dv(d);
  std::vector<std::string> keys;
  for (auto& kv : dv.toGenericDict()) {
    if (kv.key().isString()) keys.push_back(kv.key().toStringRef());
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(d.at("a").toInt(), 7);
  EXPECT_EQ(d.at(3).toStringRef(), "three");
  EXPECT_TRUE(d.contains("b"));
  EXPECT_FALSE(d.contains("z"));
  EXPECT_EQ(d.size(), 3u);
  EXPECT_THROW(d.at("z"), IndexError);
  EXPECT_THROW(d.insert(1.5, 1), TypeError);
}

}  // namespace
}  // namespace brasa
