#pragma once
// IterRef: what an elementwise kernel sees of its iterator — the dtypes and for_each — whichever
// iterator the op built (TensorIterator, or FlatIterator on the flat fast path).
//
// Note [One loop per kernel]
// A kernel compiled as a template over the iterator type is compiled once per iterator: the binary
// family had a TensorIterator and a FlatIterator copy of every loop, for every dtype and CPU
// capability. Kernels take an IterRef instead, so each loop is compiled once; the price is one
// indirect call per for_each, which the flat path's one-element calls cannot measure.

#include <cstdint>

#include "backends/cpu/flat_iterator.h"
#include "backends/cpu/tensor_iterator.h"

namespace brasa::cpu {

class IterRef {
 public:
  // Implicit on purpose: stubs taking an IterRef are called with either iterator.
  IterRef(const TensorIterator& it)  // NOLINT(google-explicit-constructor)
      : obj_(&it),
        run_(&run<TensorIterator>),
        common_dtype_(it.common_dtype()),
        output_dtype_(it.output_dtype()) {}
  IterRef(const FlatIterator& it)  // NOLINT(google-explicit-constructor)
      : obj_(&it),
        run_(&run<FlatIterator>),
        common_dtype_(it.common_dtype()),
        output_dtype_(it.output_dtype()) {}

  ScalarType common_dtype() const { return common_dtype_; }
  ScalarType output_dtype() const { return output_dtype_; }

  /// Runs `loop` over every element, in parallel when numel >= grain_size.
  void for_each(Loop1d loop, void* ctx, int64_t grain_size = 32768) const {
    run_(obj_, loop, ctx, grain_size);
  }
  template <typename F>
  void for_each(const F& f, int64_t grain_size = 32768) const {
    for_each([](char** d, const int64_t* s, int64_t n,
                void* c) { (*static_cast<const F*>(c))(d, s, n); },
             const_cast<F*>(&f), grain_size);
  }

 private:
  template <class It>
  static void run(const void* it, Loop1d loop, void* ctx, int64_t grain_size) {
    static_cast<const It*>(it)->for_each(loop, ctx, grain_size);
  }
  const void* obj_;
  void (*run_)(const void*, Loop1d, void*, int64_t);
  ScalarType common_dtype_, output_dtype_;
};

/// The dtype a kernel dispatches on (Note [Capability dtypes] in stub.h).
inline ScalarType kernel_dtype(const IterRef& it) { return it.common_dtype(); }

}  // namespace brasa::cpu
