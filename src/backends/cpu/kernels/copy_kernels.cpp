// copy_ with dtype conversion, and fill_ (compiled once per CPU capability).
#include "backends/cpu/kernels/copy_kernels.h"

#include <cstring>

#include "backends/cpu/kernels/transpose_copy.h"
#include "backends/cpu/loops.h"
#include "backends/cpu/reduced_float.h"
#include "brasa/core/dispatch_type.h"

namespace brasa::cpu {
namespace {

template <typename To, typename From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, bool> && is_complex_v<From>) {
    return static_cast<bool>(v);
  } else if constexpr (is_complex_v<To> && is_complex_v<From>) {
    return To(v);
  } else if constexpr (is_complex_v<To>) {
    return To(convert<typename To::value_type>(v));
  } else if constexpr (is_complex_v<From>) {
    return convert<To>(v.real());  // copy_ warned that the imaginary part is dropped
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (std::is_same_v<From, Half> || std::is_same_v<From, BFloat16>)
      return static_cast<float>(v) != 0.0f;
    else
      return v != From(0);
  } else if constexpr (std::is_same_v<From, Half> || std::is_same_v<From, BFloat16>)
    return static_cast<To>(static_cast<float>(v));
  else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>)
    return To(static_cast<float>(v));
  else
    return static_cast<To>(v);
}
template <>
inline bool convert<bool, bool>(bool v) {
  return v;
}

void copy_kernel(TensorIterator& it) {
  ScalarType dst = it.output_dtype(), src = it.input_dtype();
#if !defined(BRASA_CPU_CAPABILITY_DEFAULT)
  // Note [Complex kernels in the default build] (dispatch_type.h)
  if (dst != src && (is_complex_type(dst) || is_complex_type(src)))
    return ops::copy_stub.impl[int(CpuCapability::DEFAULT)](it);
#endif
  if (TransposeLayout t; transpose_layout(it, t)) {  // Note [Tiled transpose copy]
    if (dst == src) return transpose_copy_same(it, t);
    if (dst == kBFloat16 && src == kFloat) {
      return transpose_copy<uint16_t, float>(
          it, t, [](uint16_t* d, const float* s, int64_t n) { store_bf16_contiguous(s, d, n); });
    }
    if (dst == kFloat && src == kBFloat16) {
      return transpose_copy<float, uint16_t>(
          it, t, [](float* d, const uint16_t* s, int64_t n) { load_bf16_contiguous(s, d, n); });
    }
#if defined(__F16C__)
    if (dst == kHalf && src == kFloat) {
      return transpose_copy<uint16_t, float>(it, t, [](uint16_t* d, const float* s, int64_t n) {
        store_results(true, s, 4, reinterpret_cast<char*>(d), 2, n);
      });
    }
    if (dst == kFloat && src == kHalf) {
      return transpose_copy<float, uint16_t>(it, t, [](float* d, const uint16_t* s, int64_t n) {
        load_half(reinterpret_cast<const char*>(s), 2, d, n);
      });
    }
#endif
  }
  if (dst == src) {
    size_t item = element_size(dst);
    it.for_each(
        [item](char** d, const int64_t* s, int64_t n) {
          if (s[0] == int64_t(item) && s[1] == int64_t(item)) {
            std::memcpy(d[0], d[1], n * item);
          } else if (s[1] == 0) {
            for (int64_t i = 0; i < n; ++i) std::memcpy(d[0] + i * s[0], d[1], item);
          } else {
            switch (item) {
              case 1: unary_loop<uint8_t, uint8_t>(d, s, n, [](uint8_t v) { return v; }); break;
              case 2: unary_loop<uint16_t, uint16_t>(d, s, n, [](uint16_t v) { return v; }); break;
              case 4: unary_loop<uint32_t, uint32_t>(d, s, n, [](uint32_t v) { return v; }); break;
              case 8: unary_loop<uint64_t, uint64_t>(d, s, n, [](uint64_t v) { return v; }); break;
              default:  // 16: ComplexDouble
                for (int64_t i = 0; i < n; ++i) std::memcpy(d[0] + i * s[0], d[1] + i * s[1], 16);
                break;
            }
          }
        },
        1 << 18);
    return;
  }
#if defined(__F16C__)
  // Float <-> Half with the F16C instructions (reduced_float.h's block converters): 15x faster than
  // converting element by element in software.
  if ((dst == kHalf && src == kFloat) || (dst == kFloat && src == kHalf)) {
    const bool to_half = dst == kHalf;
    it.for_each([to_half](char** d, const int64_t* s, int64_t n) {
      if (to_half && s[1] == 4) {
        store_results(true, d[1], 4, d[0], s[0], n);
      } else if (!to_half && s[0] == 4) {
        load_half(d[1], s[1], reinterpret_cast<float*>(d[0]), n);
      } else {
        for (int64_t i = 0; i < n; ++i) {
          if (to_half) {
            *reinterpret_cast<Half*>(d[0] + i * s[0]) =
                Half(*reinterpret_cast<float*>(d[1] + i * s[1]));
          } else {
            *reinterpret_cast<float*>(d[0] + i * s[0]) =
                float(*reinterpret_cast<Half*>(d[1] + i * s[1]));
          }
        }
      }
    });
    return;
  }
#endif
  BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(dst, "copy_", [&] {
    using dst_t = scalar_t;
    BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(src, "copy_", [&] {
      run_unary<dst_t, scalar_t>(it, [](scalar_t v) { return convert<dst_t>(v); });
    });
  });
}

void fill_kernel(TensorIterator& it, const Scalar& value) {
#if !defined(BRASA_CPU_CAPABILITY_DEFAULT)
  if (is_complex_type(it.output_dtype()))
    return ops::fill_stub.impl[int(CpuCapability::DEFAULT)](it, value);
#endif
  BRASA_DISPATCH_ALL_TYPES_AND_COMPLEX(it.output_dtype(), "fill_", [&] {
    const scalar_t v = value.to<scalar_t>();
    it.for_each([v](char** d, const int64_t* s, int64_t n) {
      if (s[0] == sizeof(scalar_t)) {
        scalar_t* o = reinterpret_cast<scalar_t*>(d[0]);
        for (int64_t i = 0; i < n; ++i) o[i] = v;
      } else {
        for (int64_t i = 0; i < n; ++i) *reinterpret_cast<scalar_t*>(d[0] + i * s[0]) = v;
      }
    });
  });
}

}  // namespace
}  // namespace brasa::cpu

namespace brasa::ops {
BRASA_REGISTER_STUB(copy_stub, ::brasa::cpu::copy_kernel);
BRASA_REGISTER_STUB(fill_stub, ::brasa::cpu::fill_kernel);
}  // namespace brasa::ops
