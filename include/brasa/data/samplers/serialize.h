#pragma once
// `archive << sampler` / `archive >> sampler`, so that torch::save(sampler, path) and
// torch::load(sampler, path) write and read a sampler's state (its save()/load()).

#include "brasa/data/samplers/base.h"

namespace brasa::data::samplers {

template <typename BatchRequest>
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive,
                                     const Sampler<BatchRequest>& sampler) {
  sampler.save(archive);
  return archive;
}

template <typename BatchRequest>
serialize::InputArchive& operator>>(serialize::InputArchive& archive,
                                    Sampler<BatchRequest>& sampler) {
  sampler.load(archive);
  return archive;
}

}  // namespace brasa::data::samplers
