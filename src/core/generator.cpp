#include "brasa/core/generator.h"

namespace brasa {

Generator make_generator(uint64_t seed, GeneratorKind kind) {
  return Generator(make_intrusive<GeneratorImpl>(seed, kind));
}

Generator& default_generator() {
  static Generator g = make_generator();
  return g;
}

void manual_seed(uint64_t seed) {
  Generator& g = default_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  g.set_current_seed(seed);
}

}  // namespace brasa
