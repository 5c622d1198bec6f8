// Samplers: order, determinism, distributed partitions and epochs.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "brasa/brasa.h"

namespace brasa::data::samplers {
namespace {

template <typename S>
std::vector<size_t> drain(S& sampler, size_t batch_size) {
  std::vector<size_t> all;
  while (auto batch = sampler.next(batch_size)) {
    EXPECT_LE(batch->size(), batch_size);
    all.insert(all.end(), batch->begin(), batch->end());
  }
  return all;
}

std::vector<size_t> iota(size_t n) {
  std::vector<size_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

TEST(DataSamplers, Sequential) {
  SequentialSampler s(10);
  EXPECT_EQ(s.next(4), (std::vector<size_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.index(), 4u);
  EXPECT_EQ(drain(s, 4), (std::vector<size_t>{4, 5, 6, 7, 8, 9}));
  EXPECT_FALSE(s.next(4).has_value());
  s.reset(3);
  EXPECT_EQ(drain(s, 2), iota(3));
}

TEST(DataSamplers, RandomIsAPermutationAndDeterministic) {
  manual_seed(42);
  RandomSampler a(100);
  auto first = drain(a, 7);
  auto sorted = first;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, iota(100));
  EXPECT_NE(first, iota(100));
  manual_seed(42);
  RandomSampler b(100);
  EXPECT_EQ(drain(b, 13), first);
  a.reset();
  EXPECT_NE(drain(a, 7), first);  // a new epoch reshuffles

  RandomSampler g1(50, make_generator(3)), g2(50, make_generator(3));
  EXPECT_EQ(drain(g1, 8), drain(g2, 8));
  RandomSampler empty(0);
  EXPECT_FALSE(empty.next(4).has_value());
  EXPECT_THROW(RandomSampler(-1), Error);
}

TEST(DataSamplers, Stream) {
  StreamSampler s(10);
  std::vector<size_t> sizes;
  while (auto b = s.next(4)) sizes.push_back(*b);
  EXPECT_EQ(sizes, (std::vector<size_t>{4, 4, 2}));
  s.reset();
  EXPECT_EQ(s.next(20)->size(), 10u);
}

template <typename S>
void check_partition(size_t size, size_t replicas, bool duplicates, size_t epoch) {
  std::vector<size_t> counts(size, 0);
  size_t per_rank = 0;
  for (size_t rank = 0; rank < replicas; ++rank) {
    S s(size, replicas, rank, duplicates);
    s.set_epoch(epoch);
    s.reset();
    auto got = drain(s, 3);
    if (rank == 0) per_rank = got.size();
    EXPECT_EQ(got.size(), per_rank);
    for (size_t i : got) {
      ASSERT_LT(i, size);
      ++counts[i];
    }
  }
  const size_t covered =
      std::count_if(counts.begin(), counts.end(), [](size_t c) { return c > 0; });
  if (duplicates) {
    EXPECT_EQ(per_rank, (size + replicas - 1) / replicas);
    EXPECT_EQ(covered, size);  // everything at least once
    EXPECT_LE(*std::max_element(counts.begin(), counts.end()), 2u);
  } else {
    EXPECT_EQ(per_rank, size / replicas);
    EXPECT_EQ(*std::max_element(counts.begin(), counts.end()), 1u);  // nothing twice
    EXPECT_EQ(covered, per_rank * replicas);
  }
}

TEST(DataSamplers, DistributedPartitions) {
  for (bool dup : {true, false}) {
    for (size_t replicas : {1, 3, 4}) {
      check_partition<DistributedRandomSampler>(22, replicas, dup, 0);
      check_partition<DistributedRandomSampler>(24, replicas, dup, 5);
      check_partition<DistributedSequentialSampler>(22, replicas, dup, 0);
    }
  }
  DistributedSequentialSampler seq(10, 2, 1);
  EXPECT_EQ(drain(seq, 2), (std::vector<size_t>{5, 6, 7, 8, 9}));
  EXPECT_THROW(DistributedRandomSampler(10, 2, 2), Error);
}

TEST(DataSamplers, DistributedSetEpochReshuffles) {
  DistributedRandomSampler s(100, 2, 0);
  auto e0 = drain(s, 10);
  s.reset();
  EXPECT_EQ(drain(s, 10), e0);  // same epoch, same order
  s.set_epoch(1);
  s.reset();
  auto e1 = drain(s, 10);
  EXPECT_NE(e1, e0);
  EXPECT_EQ(s.epoch(), 1u);
  DistributedRandomSampler other(100, 2, 0);
  other.set_epoch(1);
  other.reset();
  EXPECT_EQ(drain(other, 10), e1);  // deterministic across processes
}

}  // namespace
}  // namespace brasa::data::samplers
