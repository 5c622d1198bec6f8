#pragma once
// Generator: a seeded source of random bits. Two kinds (Note [Generator kinds]):
//  - GeneratorKind::MT19937 (the default, and the default generator's): libtorch 1.13's CPU
//    generator, a Mersenne Twister drawn serially, so that the same seed gives libtorch's numbers;
//  - GeneratorKind::Philox: Philox4x32-10, counter based, so a range of draws can be split across
//    threads (or handed to a device kernel) and still give the same numbers for the same seed.
//
// Note [Generator kinds]
// make_generator(seed) and the default generator are MT19937: after manual_seed(s), rand, randn,
// randint, randperm, bernoulli, dropout masks, multinomial and nn::init draw exactly
// libtorch 1.13's CPU values (Note [libtorch CPU sampling] in src/backends/cpu/mt_sampling.h). Such
// fills are serial: each element takes the next words of one stream. make_generator(seed,
// GeneratorKind::Philox) gives a counter-based generator instead: fills reserve a range of Philox
// blocks and fill it in parallel (Note [Random reproducibility]); its numbers are brasa's own, the
// same for any thread count. Code that needs a counter range from an MT19937 generator (the fused
// attention's dropout) takes its Philox key as one 64-bit draw of the MT stream, at offset 0.

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "brasa/core/intrusive_ptr.h"
#include "brasa/core/macros.h"
#include "brasa/core/mt19937.h"

namespace brasa {

class Tensor;

enum class GeneratorKind : uint8_t { MT19937, Philox };

class BRASA_API GeneratorImpl : public RefCounted {
 public:
  explicit GeneratorImpl(uint64_t seed, GeneratorKind kind = GeneratorKind::MT19937) : kind_(kind) {
    set_current_seed(seed);
  }
  GeneratorKind kind() const { return kind_; }
  /// Restarts the stream: the seed, Philox offset 0, the Mersenne Twister seeded, no cached normal.
  void set_current_seed(uint64_t seed) {
    seed_ = seed;
    offset_ = 0;
    engine_.seed_with(seed);
    next_double_normal_.reset();
    next_float_normal_.reset();
  }
  uint64_t current_seed() const { return seed_; }
  /// Philox: reserves `n` 128-bit counters and returns the first; draws i of the call use
  /// counter+i.
  uint64_t reserve(uint64_t n) {
    uint64_t o = offset_;
    offset_ += n;
    return o;
  }
  uint64_t offset() const { return offset_; }
  void set_offset(uint64_t o) { offset_ = o; }
  /// MT19937: the engine, and the second normal of the last Box-Muller pair when not yet used
  /// (libtorch keeps it in the generator: the next normal draw of the same precision returns it).
  MT19937& engine() { return engine_; }
  std::optional<double>& next_double_normal() { return next_double_normal_; }
  std::optional<float>& next_float_normal() { return next_float_normal_; }
  std::mutex& mutex() { return mutex_; }
  /// A new generator in the same state; the two then advance independently.
  IntrusivePtr<GeneratorImpl> clone() const {
    auto g = make_intrusive<GeneratorImpl>(seed_, kind_);
    g->offset_ = offset_;
    g->engine_ = engine_;
    g->next_double_normal_ = next_double_normal_;
    g->next_float_normal_ = next_float_normal_;
    return g;
  }

 private:
  GeneratorKind kind_;
  uint64_t seed_ = 0;
  uint64_t offset_ = 0;
  MT19937 engine_;
  std::optional<double> next_double_normal_;
  std::optional<float> next_float_normal_;
  std::mutex mutex_;
};

class BRASA_API Generator {
 public:
  Generator() = default;
  explicit Generator(IntrusivePtr<GeneratorImpl> impl) : impl_(std::move(impl)) {}
  bool defined() const { return static_cast<bool>(impl_); }
  GeneratorKind kind() const { return impl_->kind(); }
  void set_current_seed(uint64_t seed) { impl_->set_current_seed(seed); }
  uint64_t current_seed() const { return impl_->current_seed(); }
  std::mutex& mutex() const { return impl_->mutex(); }
  GeneratorImpl* get() const { return impl_.get(); }
  /// libtorch spelling: gen.manual_seed(s) is set_current_seed(s).
  void manual_seed(uint64_t seed) { set_current_seed(seed); }
  /// Philox generators: counters consumed so far (128-bit blocks); set_offset rewinds or skips
  /// ahead. An MT19937 generator's offset stays 0 (its position is in get_state).
  uint64_t get_offset() const { return impl_->offset(); }
  void set_offset(uint64_t offset) { impl_->set_offset(offset); }
  /// The state as a uint8 tensor. MT19937: libtorch 1.13's CPU layout, 5056 bytes (seed, the
  /// Twister's position and 624 words, the cached normals), so torch.set_rng_state accepts it and
  /// the reverse. Philox: 16 bytes, seed then offset, little-endian. set_state(get_state())
  /// replays the stream; set_state throws ValueError for a tensor that is not uint8 of the
  /// generator's size.
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

/// A new generator with the given seed (MT19937 unless `kind` says Philox; Note [Generator kinds]).
BRASA_API Generator make_generator(uint64_t seed = 67280421310721ull,
                                   GeneratorKind kind = GeneratorKind::MT19937);
/// The process-wide CPU generator used when none is passed (MT19937).
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
