// Philox4x32-10 against the Random123 known-answer vectors, MT19937 against std::mt19937, and
// Generator state handling.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>
#include <vector>

#include "brasa/brasa.h"

using namespace brasa;

namespace {
// Random123 kat_vectors for philox4x32_10: counter words (c0..c3), key words (k0, k1) -> output.
// brasa's block takes counter = c1:c0, subsequence = c3:c2 and seed = k1:k0.
struct Kat {
  uint32_t ctr[4], key[2], out[4];
};
const Kat kKats[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};
uint64_t join(uint32_t lo, uint32_t hi) { return (uint64_t(hi) << 32) | lo; }
}  // namespace

TEST(Generator, PhiloxKnownAnswers) {
  for (const Kat& k : kKats) {
    Philox4x32 p(join(k.key[0], k.key[1]), join(k.ctr[0], k.ctr[1]), join(k.ctr[2], k.ctr[3]));
    for (int i = 0; i < 4; ++i)
      EXPECT_EQ(p.out[i], k.out[i]) << std::hex << k.ctr[0] << " word " << i;
  }
}

TEST(Generator, SeedAndOffset) {
  Generator g = make_generator(42, GeneratorKind::Philox);
  EXPECT_EQ(g.current_seed(), 42u);
  EXPECT_EQ(g.get_offset(), 0u);
  EXPECT_EQ(g.get()->reserve(5), 0u);
  EXPECT_EQ(g.get()->reserve(3), 5u);
  EXPECT_EQ(g.get_offset(), 8u);
  g.set_offset(2);
  EXPECT_EQ(g.get()->reserve(1), 2u);
  g.manual_seed(7);
  EXPECT_EQ(g.current_seed(), 7u);
  EXPECT_EQ(g.get_offset(), 0u);
  Generator c = g.clone();
  c.get()->reserve(10);
  EXPECT_EQ(g.get_offset(), 0u);  // clones advance separately
  EXPECT_EQ(c.current_seed(), 7u);
  Generator shared = g;  // copies of a Generator share one state, like libtorch
  shared.get()->reserve(4);
  EXPECT_EQ(g.get_offset(), 4u);
}

TEST(Generator, MT19937IsTheStandardEngine) {
  // The default kind; its words are std::mt19937's for the seed's low 32 bits.
  Generator g = make_generator(5489);
  EXPECT_EQ(g.kind(), GeneratorKind::MT19937);
  EXPECT_EQ(default_generator().kind(), GeneratorKind::MT19937);
  std::mt19937 reference(5489);
  MT19937& e = g.get()->engine();
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(e.next32(), reference()) << i;
  // 10000th output of the standard engine seeded with 5489 (C++ [rand.predef]).
  MT19937 fresh;
  for (int i = 0; i < 9999; ++i) fresh.next32();
  EXPECT_EQ(fresh.next32(), 4123659995u);
  MT19937 a(uint64_t(7) + (uint64_t(1) << 32)), b(7);
  EXPECT_EQ(a.next64(), b.next64());  // only the low 32 bits seed
  // A 64-bit draw is two words, the first the high half.
  MT19937 c(1), d(1);
  const uint64_t hi = d.next32(), lo = d.next32();
  EXPECT_EQ(c.next64(), (hi << 32) | lo);
  // Clones and reseeding restart and copy the whole state.
  g.manual_seed(3);
  (void)g.get()->engine().next32();
  Generator h = g.clone();
  EXPECT_EQ(h.get()->engine().next64(), g.get()->engine().next64());
  EXPECT_EQ(make_generator(9, GeneratorKind::Philox).kind(), GeneratorKind::Philox);
}

TEST(Generator, DefaultGeneratorAndManualSeed) {
  manual_seed(2024);
  EXPECT_EQ(default_generator().current_seed(), 2024u);
  EXPECT_EQ(default_generator().get_offset(), 0u);
  EXPECT_TRUE(default_generator().defined());
  EXPECT_FALSE(Generator().defined());
}

TEST(Generator, ConcurrentDrawsNeverOverlap) {
  // Reservations from many threads at once get disjoint counter ranges.
  Generator g = make_generator(1, GeneratorKind::Philox);
  constexpr int kThreads = 4, kPerThread = 2000;
  std::vector<std::vector<uint64_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        std::lock_guard<std::mutex> lock(g.mutex());
        got[t].push_back(g.get()->reserve(3));
      }
    });
  for (auto& th : threads) th.join();
  std::vector<uint64_t> all;
  for (auto& v : got) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], 3 * i);
  EXPECT_EQ(g.get_offset(), uint64_t(3 * kThreads * kPerThread));
}
