// save / load of the samplers: the epoch's order and the position in it.

#include "brasa/archive/archive.h"
#include "brasa/archive/error.h"
#include "brasa/data/samplers/distributed.h"
#include "brasa/data/samplers/random.h"
#include "brasa/data/samplers/sequential.h"
#include "brasa/data/samplers/stream.h"
#include "brasa/ops/factory.h"

namespace brasa::data::samplers {
namespace {

int64_t read_int(serialize::InputArchive& archive, const char* key, const char* who) {
  IValue v;
  archive.read(key, v);
  BRASA_CHECK_TYPED(SerializationError, v.isInt() && v.toInt() >= 0, who, "::load: '", key,
                    "' must be a non-negative int, got a ", v.tagKind());
  return v.toInt();
}

Tensor index_tensor(const std::vector<size_t>& v) {
  Tensor t = brasa::empty({static_cast<int64_t>(v.size())}, kInt64);
  auto* p = t.data_ptr<int64_t>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<int64_t>(v[i]);
  return t;
}

std::vector<size_t> read_indices(serialize::InputArchive& archive, const char* key,
                                 const char* who) {
  Tensor t;
  archive.read(key, t);
  BRASA_CHECK_TYPED(SerializationError, t.dim() == 1 && t.scalar_type() == kInt64, who, "::load: '",
                    key, "' must be a 1-d int64 tensor, got ", t.scalar_type(), " ", t.sizes());
  t = t.contiguous();
  const int64_t* p = t.data_ptr<int64_t>();
  std::vector<size_t> out(static_cast<size_t>(t.numel()));
  for (size_t i = 0; i < out.size(); ++i) {
    BRASA_CHECK_TYPED(SerializationError, p[i] >= 0, who, "::load: negative index in '", key, "'");
    out[i] = static_cast<size_t>(p[i]);
  }
  return out;
}

void check_position(size_t index, size_t size, const char* who) {
  BRASA_CHECK_TYPED(SerializationError, index <= size, who, "::load: position ", index,
                    " is past the end of its ", size, " indices");
}

}  // namespace

void SequentialSampler::save(serialize::OutputArchive& archive) const {
  archive.write("index", IValue(static_cast<int64_t>(index_)));
  archive.write("size", IValue(static_cast<int64_t>(size_)));
}

void SequentialSampler::load(serialize::InputArchive& archive) {
  const auto size = static_cast<size_t>(read_int(archive, "size", "SequentialSampler"));
  const auto index = static_cast<size_t>(read_int(archive, "index", "SequentialSampler"));
  check_position(index, size, "SequentialSampler");
  size_ = size;
  index_ = index;
}

void RandomSampler::save(serialize::OutputArchive& archive) const {
  archive.write("index", IValue(index_));
  archive.write("indices", indices_);
  if (generator_.defined()) archive.write("generator_state", generator_.get_state());
}

void RandomSampler::load(serialize::InputArchive& archive) {
  const int64_t index = read_int(archive, "index", "RandomSampler");
  Tensor indices;
  archive.read("indices", indices);
  BRASA_CHECK_TYPED(SerializationError, indices.dim() == 1 && indices.scalar_type() == kInt64,
                    "RandomSampler::load: 'indices' must be a 1-d int64 tensor, got ",
                    indices.scalar_type(), " ", indices.sizes());
  check_position(static_cast<size_t>(index), static_cast<size_t>(indices.numel()), "RandomSampler");
  Tensor state;
  if (generator_.defined() && archive.try_read("generator_state", state))
    generator_.set_state(state);
  indices_ = indices.contiguous().clone();
  index_ = index;
}

void StreamSampler::save(serialize::OutputArchive& archive) const {
  archive.write("examples_retrieved_so_far",
                IValue(static_cast<int64_t>(examples_retrieved_so_far_)));
  archive.write("epoch_size", IValue(static_cast<int64_t>(epoch_size_)));
}

void StreamSampler::load(serialize::InputArchive& archive) {
  const auto size = static_cast<size_t>(read_int(archive, "epoch_size", "StreamSampler"));
  const auto done =
      static_cast<size_t>(read_int(archive, "examples_retrieved_so_far", "StreamSampler"));
  check_position(done, size, "StreamSampler");
  epoch_size_ = size;
  examples_retrieved_so_far_ = done;
}

#define BRASA_DISTRIBUTED_SAMPLER_STATE(Class)                                         \
  void Class::save(serialize::OutputArchive& archive) const {                          \
    archive.write("sample_index", IValue(static_cast<int64_t>(sample_index_)));        \
    archive.write("epoch", IValue(static_cast<int64_t>(epoch_)));                      \
    archive.write("all_indices", index_tensor(all_indices_));                          \
  }                                                                                    \
  void Class::load(serialize::InputArchive& archive) {                                 \
    const auto index = static_cast<size_t>(read_int(archive, "sample_index", #Class)); \
    const auto epoch = static_cast<size_t>(read_int(archive, "epoch", #Class));        \
    std::vector<size_t> indices = read_indices(archive, "all_indices", #Class);        \
    check_position(index, indices.size(), #Class);                                     \
    all_indices_ = std::move(indices);                                                 \
    sample_index_ = index;                                                             \
    epoch_ = epoch;                                                                    \
  }
BRASA_DISTRIBUTED_SAMPLER_STATE(DistributedRandomSampler)
BRASA_DISTRIBUTED_SAMPLER_STATE(DistributedSequentialSampler)
#undef BRASA_DISTRIBUTED_SAMPLER_STATE

}  // namespace brasa::data::samplers
