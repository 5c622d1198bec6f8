// Generator::get_state / set_state (Note [Generator state layout]) and the default generator's.
//
// Note [Generator state layout]
// MT19937 generators use libtorch 1.13's CPU layout, 5056 bytes, little-endian: the seed (u64),
// the Twister's `left` and a `seeded` flag (i32, i32), `next` (u64), the 624 words (each as u64),
// three doubles of which the second is the cached normal, its valid flag (i32, then 4 bytes of
// padding), the cached float normal (f32) and its flag (a byte, then 3 bytes of padding). So a
// state saved by torch.get_rng_state() restores brasa's generator and the reverse. Philox
// generators' state is 16 bytes: the seed, then the offset (u64 each).
#include <cstring>

#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/generator.h"
#include "brasa/core/tensor.h"

namespace brasa {
namespace {

constexpr int64_t kMTStateBytes = 5056;
constexpr size_t kWordsAt = 24, kNormalAt = kWordsAt + 8 * MT19937::kStateSize;  // 5016
constexpr size_t kFloatNormalAt = 5048;

template <typename T>
void put(uint8_t* bytes, size_t at, T value) {
  std::memcpy(bytes + at, &value, sizeof(T));
}
template <typename T>
T read_at(const uint8_t* bytes, size_t at) {
  T value;
  std::memcpy(&value, bytes + at, sizeof(T));
  return value;
}

void write_mt_state(GeneratorImpl& g, uint8_t* b) {
  std::memset(b, 0, kMTStateBytes);
  const MT19937& e = g.engine();
  put<uint64_t>(b, 0, g.current_seed());
  put<int32_t>(b, 8, e.left());
  put<int32_t>(b, 12, 1);
  put<uint64_t>(b, 16, uint64_t(e.next()));
  for (int j = 0; j < MT19937::kStateSize; ++j) put<uint64_t>(b, kWordsAt + 8 * j, e.words()[j]);
  if (g.next_double_normal()) {
    put<double>(b, kNormalAt + 8, *g.next_double_normal());
    put<int32_t>(b, kNormalAt + 24, 1);
  }
  if (g.next_float_normal()) {
    put<float>(b, kFloatNormalAt, *g.next_float_normal());
    b[kFloatNormalAt + 4] = 1;
  }
}

void read_mt_state(GeneratorImpl& g, const uint8_t* b) {
  const int32_t left = read_at<int32_t>(b, 8);
  const uint64_t next = read_at<uint64_t>(b, 16);
  BRASA_CHECK(left >= 1 && left <= MT19937::kStateSize && next <= uint64_t(MT19937::kStateSize),
              "set_state: invalid mt19937 position (left=", left, ", next=", next, ")");
  g.set_current_seed(read_at<uint64_t>(b, 0));
  MT19937& e = g.engine();
  for (int j = 0; j < MT19937::kStateSize; ++j)
    e.words()[j] = uint32_t(read_at<uint64_t>(b, kWordsAt + 8 * j));
  e.set_position(left, int(next));
  if (read_at<int32_t>(b, kNormalAt + 24))
    g.next_double_normal() = read_at<double>(b, kNormalAt + 8);
  if (b[kFloatNormalAt + 4]) g.next_float_normal() = read_at<float>(b, kFloatNormalAt);
}

}  // namespace

Tensor Generator::get_state() const {
  const bool mt = kind() == GeneratorKind::MT19937;
  Tensor state = detail::empty_generic({mt ? kMTStateBytes : 16}, kByte, Device(kCPU));
  uint8_t* b = static_cast<uint8_t*>(state.data_ptr());
  std::lock_guard<std::mutex> lock(mutex());
  if (mt) {
    write_mt_state(*impl_, b);
  } else {
    put<uint64_t>(b, 0, impl_->current_seed());
    put<uint64_t>(b, 8, impl_->offset());
  }
  return state;
}

void Generator::set_state(const Tensor& state) {
  BRASA_CHECK_TYPE(state.scalar_type() == kByte, "set_state: expected a uint8 state tensor, got ",
                   state.scalar_type());
  const bool mt = kind() == GeneratorKind::MT19937;
  const int64_t bytes = mt ? kMTStateBytes : 16;
  BRASA_CHECK(state.dim() == 1 && state.numel() == bytes, "set_state: expected a state tensor of ",
              bytes, mt ? " bytes (libtorch's mt19937 CPU state)" : " bytes (seed, offset)",
              ", got ", state.sizes());
  Tensor c = state.contiguous();
  const uint8_t* b = static_cast<const uint8_t*>(c.data_ptr());
  std::lock_guard<std::mutex> lock(mutex());
  if (mt) {
    read_mt_state(*impl_, b);
  } else {
    impl_->set_current_seed(read_at<uint64_t>(b, 0));
    impl_->set_offset(read_at<uint64_t>(b, 8));
  }
}

Tensor get_rng_state() { return default_generator().get_state(); }
void set_rng_state(const Tensor& state) { default_generator().set_state(state); }

}  // namespace brasa
