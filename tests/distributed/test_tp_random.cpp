// The tensor-parallel RNG tracker in one process (Note [Tensor-parallel RNG]): a fork draws from
// its stream, which advances across forks, and leaves the default generator as it was; the
// seeds follow Megatron's (seed for the default generator, seed + 2718 + TP rank for the
// stream); checkpointed states replay; misuse is a ValueError. The two-rank behaviour (replicated
// masks equal, sharded ones different, training equal to a single-process emulation) is
// TensorParallel.DropoutUnderTheRngTrackerEqualsPerRankStreamsAndIsReproducible (test_tp.cpp).

#include <gtest/gtest.h>

#include <optional>
#include <utility>

#include "brasa/brasa.h"
#include "brasa/distributed/tensor_parallel_random.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;

Tensor draw(std::optional<Generator> g = std::nullopt) {
  return nn::functional::dropout(ones({64}, kDouble), nn::functional::DropoutFuncOptions().p(0.5),
                                 std::move(g));
}

TEST(TensorParallelRng, ForksDrawFromTheRankStreamAndLeaveTheDefaultGeneratorAlone) {
  dist::tensor_parallel_manual_seed(7, /*tp_rank=*/1);
  auto& tracker = dist::tensor_parallel_rng_tracker();
  Generator stream = make_generator(7 + 2718 + 1), shared = make_generator(7);
  Tensor a, b, c;
  {
    auto fork = tracker.fork();
    EXPECT_EQ(tracker.active(), dist::kModelParallelRNG);
    a = draw();
    {
      auto same = tracker.fork();  // nested fork of the same stream: changes nothing
      b = draw();
    }
    EXPECT_EQ(tracker.active(), dist::kModelParallelRNG);
  }
  EXPECT_TRUE(tracker.active().empty());
  EXPECT_TRUE(equal(a, draw(stream)));
  EXPECT_TRUE(equal(b, draw(stream)));
  EXPECT_TRUE(equal(draw(), draw(shared)));  // as if nothing had been drawn in the fork
  {
    auto fork = tracker.fork();  // the stream goes on where it stopped
    c = draw();
  }
  EXPECT_TRUE(equal(c, draw(stream)));
  EXPECT_TRUE(equal(draw(), draw(shared)));
  EXPECT_FALSE(equal(a, b));
}

TEST(TensorParallelRng, RanksGetDifferentStreamsAndTheSameDefaultGenerator) {
  auto& tracker = dist::tensor_parallel_rng_tracker();
  Tensor shared[2], own[2];
  for (int64_t r = 0; r < 2; ++r) {
    dist::tensor_parallel_manual_seed(11, r);
    shared[r] = draw();
    auto fork = tracker.fork();
    own[r] = draw();
  }
  EXPECT_TRUE(equal(shared[0], shared[1]));
  EXPECT_FALSE(equal(own[0], own[1]));
}

TEST(TensorParallelRng, SavedStatesReplayTheStreams) {
  dist::tensor_parallel_manual_seed(3, 0);
  auto& tracker = dist::tensor_parallel_rng_tracker();
  {
    auto fork = tracker.fork();
    draw();
  }
  const auto states = tracker.get_states();
  const Tensor shared = get_rng_state();
  Tensor first, again;
  {
    auto fork = tracker.fork();
    first = draw();
  }
  tracker.set_states(states);
  set_rng_state(shared);
  {
    auto fork = tracker.fork();
    again = draw();
  }
  EXPECT_TRUE(equal(first, again));
  EXPECT_THROW(tracker.set_states({{"x", zeros({3}, kByte)}}), ValueError);
}

TEST(TensorParallelRng, MisuseIsAValueErrorNamingTheStreams) {
  dist::RNGStatesTracker tracker;
  EXPECT_THROW((void)tracker.fork("nope"), ValueError);
  tracker.add("a", 1);
  EXPECT_THROW(tracker.add("a", 2), ValueError);  // the name exists
  EXPECT_THROW(tracker.add("b", 1), ValueError);  // the seed is taken
  tracker.add("b", 2);
  auto fork = tracker.fork("a");
  try {
    (void)tracker.fork("b");
    ADD_FAILURE() << "no error for a fork inside another";
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("inside a fork of 'a'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(tracker.reset(), ValueError);
  EXPECT_THROW(tracker.set_states({}), ValueError);
}

TEST(TensorParallelRng, AMovedForkUndoesOnce) {
  dist::tensor_parallel_manual_seed(5, 0);
  auto& tracker = dist::tensor_parallel_rng_tracker();
  Generator shared = make_generator(5);
  {
    auto first = tracker.fork();
    auto second = std::move(first);
    draw();
  }
  EXPECT_TRUE(tracker.active().empty());
  EXPECT_TRUE(equal(draw(), draw(shared)));
}

}  // namespace
