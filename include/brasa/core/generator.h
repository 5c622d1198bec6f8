#pragma once
// Generator: a seeded source of random bits (Philox4x32-10, counter based, so a range of draws can
// be split across threads and still give the same numbers for the same seed).

#include <cstdint>
#include <memory>
#include <mutex>

#include "brasa/core/intrusive_ptr.h"
#include "brasa/core/macros.h"

namespace brasa {

class Tensor;

class BRASA_API GeneratorImpl : public RefCounted {
 public:
  explicit GeneratorImpl(uint64_t seed) { set_current_seed(seed); }
  void set_current_seed(uint64_t seed) {
    seed_ = seed;
    offset_ = 0;
  }
  uint64_t current_seed() const { return seed_; }
  /// Reserves `n` 128-bit Philox counters and returns the first; draws i of the call use counter+i.
  uint64_t reserve(uint64_t n) {
    uint64_t o = offset_;
    offset_ += n;
    return o;
  }
  uint64_t offset() const { return offset_; }
  void set_offset(uint64_t o) { offset_ = o; }
  std::mutex& mutex() { return mutex_; }
  /// A new generator in the same state (seed and offset); the two then advance independently.
  IntrusivePtr<GeneratorImpl> clone() const {
    auto g = make_intrusive<GeneratorImpl>(seed_);
    g->offset_ = offset_;
    return g;
  }

 private:
  uint64_t seed_ = 0;
  uint64_t offset_ = 0;
  std::mutex mutex_;
};

class BRASA_API Generator {
 public:
  Generator() = default;
  explicit Generator(IntrusivePtr<GeneratorImpl> impl) : impl_(std::move(impl)) {}
  bool defined() const { return static_cast<bool>(impl_); }
  void set_current_seed(uint64_t seed) { impl_->set_current_seed(seed); }
  uint64_t current_seed() const { return impl_->current_seed(); }
  std::mutex& mutex() const { return impl_->mutex(); }
  GeneratorImpl* get() const { return impl_.get(); }
  /// libtorch spelling: gen.manual_seed(s) is set_current_seed(s).
  void manual_seed(uint64_t seed) { set_current_seed(seed); }
  /// Philox counters consumed so far (128-bit blocks); set_offset rewinds or skips ahead.
  uint64_t get_offset() const { return impl_->offset(); }
  void set_offset(uint64_t offset) { impl_->set_offset(offset); }
  /// The state as a uint8 tensor [16]: seed then offset, little-endian (libtorch's CPU state is
  /// mt19937's; brasa's Philox needs only these two words). set_state(get_state()) replays the
  /// stream; throws ValueError for a tensor that is not uint8 [16].
  Tensor get_state() const;
  void set_state(const Tensor& state);
  /// An independent generator in the same state.
  Generator clone() const {
    std::lock_guard<std::mutex> lock(impl_->mutex());
    return Generator(impl_->clone());
  }

 private:
  IntrusivePtr<GeneratorImpl> impl_;
};

/// A new generator with the given seed.
BRASA_API Generator make_generator(uint64_t seed = 67280421310721ull);
/// The process-wide CPU generator used when none is passed.
BRASA_API Generator& default_generator();
/// Seeds the default generator (torch::manual_seed).
BRASA_API void manual_seed(uint64_t seed);
/// The default generator's state (Generator::get_state) and its restoration.
BRASA_API Tensor get_rng_state();
BRASA_API void set_rng_state(const Tensor& state);

/// Philox4x32-10 block: four 32-bit random words for (seed, counter).
struct Philox4x32 {
  uint32_t out[4];
  BRASA_ALWAYS_INLINE Philox4x32(uint64_t seed, uint64_t counter, uint64_t subsequence = 0) {
    uint32_t c0 = uint32_t(counter), c1 = uint32_t(counter >> 32), c2 = uint32_t(subsequence),
             c3 = uint32_t(subsequence >> 32);
    uint32_t k0 = uint32_t(seed), k1 = uint32_t(seed >> 32);
    for (int r = 0; r < 10; ++r) {
      uint64_t p0 = uint64_t(0xD2511F53u) * c0, p1 = uint64_t(0xCD9E8D57u) * c2;
      uint32_t n0 = uint32_t(p1 >> 32) ^ c1 ^ k0, n2 = uint32_t(p0 >> 32) ^ c3 ^ k1;
      // (c0, c1, c2, c3) <- (hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0)
      c0 = n0;
      c1 = uint32_t(p1);
      c2 = n2;
      c3 = uint32_t(p0);
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
  }
};

}  // namespace brasa
