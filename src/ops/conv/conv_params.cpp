// Argument checks and output shapes of convolutions (PyTorch's rules and error cases).
#include "ops/conv/conv_params.h"

#include <sstream>

#include "brasa/core/error.h"

namespace brasa::ops::conv {
namespace {

void expand(const char* op, const char* what, IntArrayRef v, int64_t nsp, int64_t* out) {
  BRASA_CHECK(v.size() == 1 || static_cast<int64_t>(v.size()) == nsp, op, ": expected ", what,
              " to be a single integer value or a list of ", nsp, " values to match the ",
              "convolution dimensions, but got ", what, "=", v);
  for (int64_t i = 0; i < nsp; ++i) out[i] = v[v.size() == 1 ? 0 : i];
}

}  // namespace

std::string shape_str(IntArrayRef s) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << "]";
  return os.str();
}

ConvParams check_conv(const char* op, const Tensor& input, const Tensor& weight, const Tensor& bias,
                      IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                      bool transposed, IntArrayRef output_padding, int64_t groups) {
  BRASA_CHECK(input.defined() && weight.defined(), op, ": got an undefined input or weight");
  const int64_t wd = weight.dim();
  BRASA_CHECK(wd >= 3 && wd <= 5, op, ": expected a 3-D, 4-D or 5-D weight, but got weight of ",
              "size ", shape_str(weight.sizes()));
  BRASA_CHECK(input.dim() == wd, op, ": expected ", wd, "-dimensional input for ", wd,
              "-dimensional weight ", shape_str(weight.sizes()), ", but got ", input.dim(),
              "-dimensional input of size ", shape_str(input.sizes()), " instead");
  BRASA_CHECK_TYPE(input.dtype() == weight.dtype(), op, ": input type (", input.dtype(),
                   ") and weight type (", weight.dtype(), ") should be the same");
  BRASA_CHECK_TYPE(!bias.defined() || bias.dtype() == input.dtype(), op, ": input type (",
                   input.dtype(), ") and bias type (", bias.dtype(), ") should be the same");
  const ScalarType dt = input.dtype();
  BRASA_CHECK_TYPE(dt != kBool, op, ": not implemented for dtype ", dt);
  BRASA_CHECK_TYPE(!transposed || is_floating_type(dt) || dt == kLong, op,
                   ": transposed convolution is not implemented for dtype ", dt);
  ConvParams p;
  p.nsp = wd - 2;
  p.transposed = transposed;
  p.groups = groups;
  expand(op, "stride", stride, p.nsp, p.stride);
  expand(op, "padding", padding, p.nsp, p.padding);
  expand(op, "dilation", dilation, p.nsp, p.dilation);
  if (transposed) expand(op, "output_padding", output_padding, p.nsp, p.output_padding);
  BRASA_CHECK(groups > 0, op, ": non-positive groups is not supported (groups=", groups, ")");
  for (int64_t i = 0; i < p.nsp; ++i) {
    BRASA_CHECK(p.stride[i] > 0, op, ": non-positive stride is not supported, got stride=", stride);
    BRASA_CHECK(p.padding[i] >= 0, op,
                ": negative padding is not supported, got padding=", padding);
    BRASA_CHECK(p.dilation[i] > 0, op,
                ": dilation should be greater than zero, got dilation=", dilation);
    BRASA_CHECK(p.output_padding[i] >= 0, op, ": negative output_padding is not supported");
    BRASA_CHECK(
        !transposed || p.output_padding[i] < p.stride[i] || p.output_padding[i] < p.dilation[i], op,
        ": output padding must be smaller than either stride or dilation, but got ",
        "output_padding=", output_padding, ", stride=", stride, ", dilation=", dilation);
  }
  const int64_t c_in = input.size(1), w0 = weight.size(0), w1 = weight.size(1);
  BRASA_CHECK(w0 % groups == 0, op, ": given groups=", groups, ", expected weight to be divisible ",
              "by ", groups, " at dimension 0, but got weight of size ", shape_str(weight.sizes()));
  const int64_t expect_c = transposed ? w0 : w1 * groups;
  BRASA_CHECK(c_in == expect_c, op, ": given groups=", groups, ", weight of size ",
              shape_str(weight.sizes()), ", expected input", shape_str(input.sizes()), " to have ",
              expect_c, " channels, but got ", c_in, " channels instead");
  const int64_t c_out = transposed ? w1 * groups : w0;
  if (bias.defined())
    BRASA_CHECK(bias.dim() == 1 && bias.size(0) == c_out, op, ": given weight of size ",
                shape_str(weight.sizes()), ", expected bias to be 1-dimensional with ", c_out,
                " elements, but got bias of size ", shape_str(bias.sizes()), " instead");
  for (int64_t i = 0; i < p.nsp; ++i) {
    const int64_t in = input.size(i + 2), k = weight.size(i + 2);
    const int64_t ext = p.dilation[i] * (k - 1) + 1;
    if (!transposed)
      BRASA_CHECK(in + 2 * p.padding[i] >= ext, op, ": calculated padded input size per channel ",
                  shape_str(input.sizes().slice(2)), " with padding ", padding,
                  ", kernel size (dilated) ", ext, " at spatial dim ", i,
                  ": kernel size can't be greater than actual input size");
    else
      BRASA_CHECK((in - 1) * p.stride[i] - 2 * p.padding[i] + ext + p.output_padding[i] > 0, op,
                  ": given input of size ", shape_str(input.sizes()), " and weight of size ",
                  shape_str(weight.sizes()), ", the calculated output size is too small");
  }
  return p;
}

DimVector conv_output_shape(const ConvParams& p, IntArrayRef input, IntArrayRef weight) {
  DimVector out{input[0], p.transposed ? weight[1] * p.groups : weight[0]};
  for (int64_t i = 0; i < p.nsp; ++i) {
    const int64_t in = input[i + 2], ext = p.dilation[i] * (weight[i + 2] - 1) + 1;
    out.push_back(p.transposed
                      ? (in - 1) * p.stride[i] - 2 * p.padding[i] + ext + p.output_padding[i]
                      : (in + 2 * p.padding[i] - ext) / p.stride[i] + 1);
  }
  return out;
}

}  // namespace brasa::ops::conv
