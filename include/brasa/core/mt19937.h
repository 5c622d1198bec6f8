#pragma once
// MT19937: the 32-bit Mersenne Twister (Matsumoto & Nishimura 1998; the engine std::mt19937 names),
// kept with libtorch's bookkeeping so that a generator's state can be saved in libtorch's layout.
//
// Note [MT19937 state]
// Seeding takes the seed's low 32 bits into state[0] and fills the rest with the standard
// recurrence; `left` counts down to the next regeneration of the 624 words and `next` indexes the
// next word to temper. A freshly seeded engine has left = 1, next = 0, so its first draw
// regenerates the block; its outputs are then std::mt19937's, word for word. libtorch's 64-bit draw
// is two 32-bit draws, the first one the high half.

#include <cstdint>

#include "brasa/core/macros.h"

namespace brasa {

class MT19937 {
 public:
  static constexpr int kStateSize = 624;

  explicit MT19937(uint64_t seed = 5489) { seed_with(seed); }

  void seed_with(uint64_t seed) {
    state_[0] = uint32_t(seed);
    for (int j = 1; j < kStateSize; ++j)
      state_[j] = 1812433253u * (state_[j - 1] ^ (state_[j - 1] >> 30)) + uint32_t(j);
    left_ = 1;
    next_ = 0;
  }

  BRASA_ALWAYS_INLINE uint32_t next32() {
    if (--left_ == 0) regenerate();
    uint32_t y = state_[next_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }
  BRASA_ALWAYS_INLINE uint64_t next64() {
    const uint64_t hi = next32();
    return (hi << 32) | next32();
  }

  // The raw state, for get_state / set_state (Note [MT19937 state]).
  const uint32_t* words() const { return state_; }
  uint32_t* words() { return state_; }
  int left() const { return left_; }
  int next() const { return next_; }
  void set_position(int left, int next) {
    left_ = left;
    next_ = next;
  }

 private:
  void regenerate() {
    constexpr uint32_t kUpper = 0x80000000u, kLower = 0x7fffffffu, kMatrix = 0x9908b0dfu;
    auto twist = [](uint32_t u, uint32_t v) {
      const uint32_t y = (u & kUpper) | (v & kLower);
      return (y >> 1) ^ ((y & 1u) ? kMatrix : 0u);
    };
    int k = 0;
    for (; k < kStateSize - 397; ++k) state_[k] = state_[k + 397] ^ twist(state_[k], state_[k + 1]);
    for (; k < kStateSize - 1; ++k)
      state_[k] = state_[k + 397 - kStateSize] ^ twist(state_[k], state_[k + 1]);
    state_[k] = state_[396] ^ twist(state_[k], state_[0]);
    left_ = kStateSize;
    next_ = 0;
  }

  uint32_t state_[kStateSize];
  int left_ = 1;
  int next_ = 0;
};

}  // namespace brasa
