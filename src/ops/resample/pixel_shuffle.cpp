// pixel_shuffle / pixel_unshuffle: reshape + permute + reshape (views and one copy), so their
// gradient is the other op.
#include "brasa/ops/pool.h"
#include "ops/pool/pool_common.h"

namespace brasa {

Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor) {
  const int64_t r = upscale_factor;
  BRASA_CHECK(self.defined() && self.dim() >= 3,
              "pixel_shuffle: expected an input of at least 3 "
              "dims [*, C, H, W], got shape ",
              ops::pool::shape_str(self.defined() ? self.sizes() : IntArrayRef{}));
  BRASA_CHECK(r > 0, "pixel_shuffle: upscale_factor must be positive, got ", r);
  const int64_t c = self.size(-3), h = self.size(-2), w = self.size(-1);
  BRASA_CHECK(c % (r * r) == 0, "pixel_shuffle: channels (input.size(-3)=", c,
              ") must be divisible by upscale_factor^2 = ", r * r, ", input shape ",
              ops::pool::shape_str(self.sizes()));
  DimVector lead(self.sizes().slice(0, static_cast<size_t>(self.dim() - 3)));
  const int64_t nl = static_cast<int64_t>(lead.size());
  DimVector split = lead, perm, shape = lead;
  for (int64_t s : {c / (r * r), r, r, h, w}) split.push_back(s);
  for (int64_t i = 0; i < nl; ++i) perm.push_back(i);
  for (int64_t i : {0, 3, 1, 4, 2}) perm.push_back(nl + i);
  for (int64_t s : {c / (r * r), h * r, w * r}) shape.push_back(s);
  return self.reshape(split).permute(perm).reshape(shape);
}

Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor) {
  const int64_t r = downscale_factor;
  BRASA_CHECK(self.defined() && self.dim() >= 3,
              "pixel_unshuffle: expected an input of at least "
              "3 dims [*, C, H, W], got shape ",
              ops::pool::shape_str(self.defined() ? self.sizes() : IntArrayRef{}));
  BRASA_CHECK(r > 0, "pixel_unshuffle: downscale_factor must be positive, got ", r);
  const int64_t c = self.size(-3), h = self.size(-2), w = self.size(-1);
  BRASA_CHECK(h % r == 0 && w % r == 0, "pixel_unshuffle: height and width (", h, ", ", w,
              ") must be divisible by downscale_factor ", r, ", input shape ",
              ops::pool::shape_str(self.sizes()));
  DimVector lead(self.sizes().slice(0, static_cast<size_t>(self.dim() - 3)));
  const int64_t nl = static_cast<int64_t>(lead.size());
  DimVector split = lead, perm, shape = lead;
  for (int64_t s : {c, h / r, r, w / r, r}) split.push_back(s);
  for (int64_t i = 0; i < nl; ++i) perm.push_back(i);
  for (int64_t i : {0, 2, 4, 1, 3}) perm.push_back(nl + i);
  for (int64_t s : {c * r * r, h / r, w / r}) shape.push_back(s);
  return self.reshape(split).permute(perm).reshape(shape);
}

}  // namespace brasa
