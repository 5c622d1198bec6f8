// Op map of the convolution family (cases_conv.py).

#include "brasa/ops/conv.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

std::vector<int64_t> ints(const Args& a, const char* name, int64_t dflt) {
  return a.kw_ints(name).value_or(std::vector<int64_t>{dflt});
}

Tensor bias(const Args& a) { return a.size() > 2 && a.is_tensor(2) ? a.tensor(2) : Tensor(); }

template <typename Conv, typename ConvStr>
Value conv(const Args& a, Conv f, ConvStr fs) {
  const int64_t groups = a.kw_int("groups").value_or(1);
  const Value* pv = a.kwarg("padding");
  if (pv && pv->tag == Tag::Str)
    return fs(a.tensor(0), a.tensor(1), bias(a), ints(a, "stride", 1), pv->s,
              ints(a, "dilation", 1), groups);
  return f(a.tensor(0), a.tensor(1), bias(a), ints(a, "stride", 1), ints(a, "padding", 0),
           ints(a, "dilation", 1), groups);
}

template <typename Conv>
Value tconv(const Args& a, Conv f) {
  return f(a.tensor(0), a.tensor(1), bias(a), ints(a, "stride", 1), ints(a, "padding", 0),
           ints(a, "output_padding", 0), a.kw_int("groups").value_or(1), ints(a, "dilation", 1));
}

#define BRASA_CONV_ENTRY(name)                                                                \
  {                                                                                           \
#name, [](const Args& a) -> Value {                                                         \
     return conv(                                                                              \
         a,                                                                                    \
         [](const Tensor& x, const Tensor& w, const Tensor& b, IntArrayRef s, IntArrayRef p,   \
            IntArrayRef d, int64_t g) { return name(x, w, b, s, p, d, g); },                   \
         [](const Tensor& x, const Tensor& w, const Tensor& b, IntArrayRef s,                  \
            const std::string& p, IntArrayRef d, int64_t g) { return name(x, w, b, s, p, d, g); }); \
   } \
  }
#define BRASA_TCONV_ENTRY(name)                                                                  \
  {                                                                                              \
#name, [](const Args& a) -> Value {                                                            \
     return tconv(a, [](const Tensor& x, const Tensor& w, const Tensor& b, IntArrayRef s,         \
                        IntArrayRef p, IntArrayRef op, int64_t g,                                 \
                        IntArrayRef d) { return name(x, w, b, s, p, op, g, d); });                 \
   } \
  }

const OpTable kConv("conv", {
                                BRASA_CONV_ENTRY(conv1d),
                                BRASA_CONV_ENTRY(conv2d),
                                BRASA_CONV_ENTRY(conv3d),
                                BRASA_TCONV_ENTRY(conv_transpose1d),
                                BRASA_TCONV_ENTRY(conv_transpose2d),
                                BRASA_TCONV_ENTRY(conv_transpose3d),
                                {"convolution_backward",
                                 [](const Args& a) -> Value {
                                   auto [gi, gw, gb] = convolution_backward(
                                       a.tensor(0), a.tensor(1), a.tensor(2), *a.kw_ints("stride"),
                                       *a.kw_ints("padding"), *a.kw_ints("dilation"),
                                       *a.kw_bool("transposed"), *a.kw_ints("output_padding"),
                                       *a.kw_int("groups"), {true, true, true});
                                   return Value::of_tensors({gi, gw, gb});
                                 }},
                            });

}  // namespace
}  // namespace brasa::conformance
