// Derivatives of upsample_nearest{1,2,3}d, upsample_bilinear2d, the reflection / replication /
// circular pads (their dispatched backward ops) and of those backward ops (the forward op applied
// to the incoming gradient, so all of them differentiate to any order); im2col and col2im are each
// other's gradient.

#include <optional>

#include "brasa/ops/pool.h"
#include "ops/pool/pool_grad.h"
#include "ops/pool/resample_ops.h"

namespace brasa::ops {

using IntArray = IntArrayRef;
using OptD = std::optional<double>;

namespace {

using autograd::BackwardContext;
using autograd::BelowAutograd;
using autograd::SavedVariable;
using pool::Ints;
using pool::to_vec;

// The spatial sizes of an [N, C, *spatial] result.
Ints spatial(const Tensor& t) { return Ints(t.sizes().begin() + 2, t.sizes().end()); }

template <class Op, class Back, class... Args>
Tensor record_one(Op& op, const char* node, const Tensor& self, Back back, bool has_saved,
                  const Args&... args) {
  Tensor r;
  {
    BelowAutograd below;
    r = op.call(self, args...);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  pool::record(
      node, op.name().c_str(), self, r,
      [back = std::move(back), out = spatial(r), in = to_vec(self.sizes())](
          const Tensor& g, BackwardContext&) { return back(g, out, in); },
      has_saved);
  return r;
}

Tensor nearest1d_ag(const Tensor& self, IntArray size, OptD s) {
  auto back = [s](const Tensor& g, const Ints& out, const Ints& in) {
    return upsample_nearest1d_backward(g, out, in, s);
  };
  return record_one(upsample_nearest1d_op(), "UpsampleNearest1DBackward0", self, back, false, size,
                    s);
}
Tensor nearest2d_ag(const Tensor& self, IntArray size, OptD h, OptD w) {
  auto back = [h, w](const Tensor& g, const Ints& out, const Ints& in) {
    return upsample_nearest2d_backward(g, out, in, h, w);
  };
  return record_one(upsample_nearest2d_op(), "UpsampleNearest2DBackward0", self, back, false, size,
                    h, w);
}
Tensor nearest3d_ag(const Tensor& self, IntArray size, OptD d, OptD h, OptD w) {
  auto back = [d, h, w](const Tensor& g, const Ints& out, const Ints& in) {
    return upsample_nearest3d_backward(g, out, in, d, h, w);
  };
  return record_one(upsample_nearest3d_op(), "UpsampleNearest3DBackward0", self, back, false, size,
                    d, h, w);
}
Tensor bilinear2d_ag(const Tensor& self, IntArray size, bool align_corners, OptD h, OptD w) {
  auto back = [align_corners, h, w](const Tensor& g, const Ints& out, const Ints& in) {
    return upsample_bilinear2d_backward(g, out, in, align_corners, h, w);
  };
  return record_one(upsample_bilinear2d_op(), "UpsampleBilinear2DBackward0", self, back, false,
                    size, align_corners, h, w);
}

Tensor nearest1d_backward_ag(const Tensor& go, IntArray out, IntArray in, OptD s) {
  return pool::linear_backward(
      "UpsampleNearest1DBackwardBackward0", "upsample_nearest1d_backward", go,
      [&] { return upsample_nearest1d_backward_op().call(go, out, in, s); },
      [out = to_vec(out), s](const Tensor& gg) { return upsample_nearest1d(gg, out, s); });
}
Tensor nearest2d_backward_ag(const Tensor& go, IntArray out, IntArray in, OptD h, OptD w) {
  return pool::linear_backward(
      "UpsampleNearest2DBackwardBackward0", "upsample_nearest2d_backward", go,
      [&] { return upsample_nearest2d_backward_op().call(go, out, in, h, w); },
      [out = to_vec(out), h, w](const Tensor& gg) { return upsample_nearest2d(gg, out, h, w); });
}
Tensor nearest3d_backward_ag(const Tensor& go, IntArray out, IntArray in, OptD d, OptD h, OptD w) {
  return pool::linear_backward(
      "UpsampleNearest3DBackwardBackward0", "upsample_nearest3d_backward", go,
      [&] { return upsample_nearest3d_backward_op().call(go, out, in, d, h, w); },
      [out = to_vec(out), d, h, w](const Tensor& gg) {
        return upsample_nearest3d(gg, out, d, h, w);
      });
}
Tensor bilinear2d_backward_ag(const Tensor& go, IntArray out, IntArray in, bool align_corners,
                              OptD h, OptD w) {
  return pool::linear_backward(
      "UpsampleBilinear2DBackwardBackward0", "upsample_bilinear2d_backward", go,
      [&] { return upsample_bilinear2d_backward_op().call(go, out, in, align_corners, h, w); },
      [out = to_vec(out), align_corners, h, w](const Tensor& gg) {
        return upsample_bilinear2d(gg, out, align_corners, h, w);
      });
}

template <class Fwd, class Bwd>
Tensor pad_ag(Fwd& fwd, Bwd& bwd, const char* node, const Tensor& self, IntArray padding) {
  Tensor r;
  {
    BelowAutograd below;
    r = fwd.call(self, padding);
  }
  if (!autograd::any_requires_grad({&self})) return r;
  pool::record(
      node, fwd.name().c_str(), self, r,
      [&bwd, ss = SavedVariable(self), p = to_vec(padding)](const Tensor& g, BackwardContext& ctx) {
        return bwd.call(g, ctx.unpack(ss), p);
      });
  return r;
}

Tensor reflection_pad1d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(reflection_pad1d_op(), reflection_pad1d_backward_op(), "reflection_pad1dBackward0",
                self, padding);
}
Tensor reflection_pad2d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(reflection_pad2d_op(), reflection_pad2d_backward_op(), "reflection_pad2dBackward0",
                self, padding);
}
Tensor reflection_pad3d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(reflection_pad3d_op(), reflection_pad3d_backward_op(), "reflection_pad3dBackward0",
                self, padding);
}
Tensor replication_pad1d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(replication_pad1d_op(), replication_pad1d_backward_op(),
                "replication_pad1dBackward0", self, padding);
}
Tensor replication_pad2d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(replication_pad2d_op(), replication_pad2d_backward_op(),
                "replication_pad2dBackward0", self, padding);
}
Tensor replication_pad3d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(replication_pad3d_op(), replication_pad3d_backward_op(),
                "replication_pad3dBackward0", self, padding);
}
Tensor circular_pad1d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(circular_pad1d_op(), circular_pad1d_backward_op(), "circular_pad1dBackward0", self,
                padding);
}
Tensor circular_pad2d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(circular_pad2d_op(), circular_pad2d_backward_op(), "circular_pad2dBackward0", self,
                padding);
}
Tensor circular_pad3d_ag(const Tensor& self, IntArray padding) {
  return pad_ag(circular_pad3d_op(), circular_pad3d_backward_op(), "circular_pad3dBackward0", self,
                padding);
}

template <class Bwd, class Fwd>
Tensor pad_backward_ag(Bwd& bwd, Fwd& fwd, const char* node, const Tensor& go, const Tensor& self,
                       IntArray padding) {
  return pool::linear_backward(
      node, bwd.name().c_str(), go, [&] { return bwd.call(go, self, padding); },
      [&fwd, p = to_vec(padding)](const Tensor& gg) { return fwd.call(gg, p); });
}
Tensor reflection_pad1d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(reflection_pad1d_backward_op(), reflection_pad1d_op(),
                         "reflection_pad1dBackwardBackward0", go, self, padding);
}
Tensor reflection_pad2d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(reflection_pad2d_backward_op(), reflection_pad2d_op(),
                         "reflection_pad2dBackwardBackward0", go, self, padding);
}
Tensor reflection_pad3d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(reflection_pad3d_backward_op(), reflection_pad3d_op(),
                         "reflection_pad3dBackwardBackward0", go, self, padding);
}
Tensor replication_pad1d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(replication_pad1d_backward_op(), replication_pad1d_op(),
                         "replication_pad1dBackwardBackward0", go, self, padding);
}
Tensor replication_pad2d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(replication_pad2d_backward_op(), replication_pad2d_op(),
                         "replication_pad2dBackwardBackward0", go, self, padding);
}
Tensor replication_pad3d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(replication_pad3d_backward_op(), replication_pad3d_op(),
                         "replication_pad3dBackwardBackward0", go, self, padding);
}
Tensor circular_pad1d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(circular_pad1d_backward_op(), circular_pad1d_op(),
                         "circular_pad1dBackwardBackward0", go, self, padding);
}
Tensor circular_pad2d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(circular_pad2d_backward_op(), circular_pad2d_op(),
                         "circular_pad2dBackwardBackward0", go, self, padding);
}
Tensor circular_pad3d_backward_ag(const Tensor& go, const Tensor& self, IntArray padding) {
  return pad_backward_ag(circular_pad3d_backward_op(), circular_pad3d_op(),
                         "circular_pad3dBackwardBackward0", go, self, padding);
}

Tensor im2col_ag(const Tensor& self, IntArray kernel, IntArray dilation, IntArray padding,
                 IntArray stride) {
  auto back = [k = to_vec(kernel), d = to_vec(dilation), p = to_vec(padding), s = to_vec(stride)](
                  const Tensor& g, const Ints&, const Ints& in) {
    return col2im(g, IntArrayRef(in).slice(in.size() - 2), k, d, p, s);
  };
  return record_one(im2col_op(), "Im2ColBackward0", self, back, false, kernel, dilation, padding,
                    stride);
}
Tensor col2im_ag(const Tensor& self, IntArray output_size, IntArray kernel, IntArray dilation,
                 IntArray padding, IntArray stride) {
  auto back = [k = to_vec(kernel), d = to_vec(dilation), p = to_vec(padding), s = to_vec(stride)](
                  const Tensor& g, const Ints&, const Ints&) { return im2col(g, k, d, p, s); };
  return record_one(col2im_op(), "Col2ImBackward0", self, back, false, output_size, kernel,
                    dilation, padding, stride);
}

}  // namespace

BRASA_REGISTER_KERNEL(upsample_nearest1d_op, nearest1d_ag, Autograd)
BRASA_REGISTER_KERNEL(upsample_nearest2d_op, nearest2d_ag, Autograd)
BRASA_REGISTER_KERNEL(upsample_nearest3d_op, nearest3d_ag, Autograd)
BRASA_REGISTER_KERNEL(upsample_bilinear2d_op, bilinear2d_ag, Autograd)
BRASA_REGISTER_KERNEL(upsample_nearest1d_backward_op, nearest1d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(upsample_nearest2d_backward_op, nearest2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(upsample_nearest3d_backward_op, nearest3d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(upsample_bilinear2d_backward_op, bilinear2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(im2col_op, im2col_ag, Autograd)
BRASA_REGISTER_KERNEL(col2im_op, col2im_ag, Autograd)

BRASA_REGISTER_KERNEL(reflection_pad1d_op, reflection_pad1d_ag, Autograd)
BRASA_REGISTER_KERNEL(reflection_pad2d_op, reflection_pad2d_ag, Autograd)
BRASA_REGISTER_KERNEL(reflection_pad3d_op, reflection_pad3d_ag, Autograd)
BRASA_REGISTER_KERNEL(replication_pad1d_op, replication_pad1d_ag, Autograd)
BRASA_REGISTER_KERNEL(replication_pad2d_op, replication_pad2d_ag, Autograd)
BRASA_REGISTER_KERNEL(replication_pad3d_op, replication_pad3d_ag, Autograd)
BRASA_REGISTER_KERNEL(circular_pad1d_op, circular_pad1d_ag, Autograd)
BRASA_REGISTER_KERNEL(circular_pad2d_op, circular_pad2d_ag, Autograd)
BRASA_REGISTER_KERNEL(circular_pad3d_op, circular_pad3d_ag, Autograd)
BRASA_REGISTER_KERNEL(reflection_pad1d_backward_op, reflection_pad1d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(reflection_pad2d_backward_op, reflection_pad2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(reflection_pad3d_backward_op, reflection_pad3d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(replication_pad1d_backward_op, replication_pad1d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(replication_pad2d_backward_op, replication_pad2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(replication_pad3d_backward_op, replication_pad3d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(circular_pad1d_backward_op, circular_pad1d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(circular_pad2d_backward_op, circular_pad2d_backward_ag, Autograd)
BRASA_REGISTER_KERNEL(circular_pad3d_backward_op, circular_pad3d_backward_ag, Autograd)

}  // namespace brasa::ops
