#include "autograd/view_nodes.h"

#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/view.h"

namespace brasa::autograd {
namespace {

// Where a view sits inside its base's storage, relative to the base's first element.
struct Geometry {
  DimVector base_sizes, base_strides;
  DimVector sizes, strides;
  int64_t offset = 0;

  Geometry(const Tensor& base, const Tensor& view)
      : base_sizes(base.sizes()),
        base_strides(base.strides()),
        sizes(view.sizes()),
        strides(view.strides()),
        offset(view.storage_offset() - base.storage_offset()) {}

  // A zero tensor laid out like the base, and the view's region of it.
  std::pair<Tensor, Tensor> zero_base(const Tensor& like) const {
    Tensor full = empty_strided(base_sizes, base_strides, like.options()).zero_();
    return {full, full.as_strided(sizes, strides, offset)};
  }
};

class AsStridedBackward final : public Node {
 public:
  explicit AsStridedBackward(Geometry g) : geom_(std::move(g)) {}
  std::string name() const override { return "AsStridedBackward0"; }
  variable_list apply(variable_list&& grads) override {
    if (!grads[0].defined()) return {Tensor()};
    auto [full, region] = geom_.zero_base(grads[0]);
    region.copy_(grads[0]);
    return {full};
  }

 private:
  Geometry geom_;
};

class CopySlices final : public Node {
 public:
  CopySlices(Geometry g, std::shared_ptr<Node> fn) : geom_(std::move(g)), fn_(std::move(fn)) {}
  std::string name() const override { return "CopySlices"; }
  variable_list apply(variable_list&& grads) override {
    variable_list out(num_outputs());
    if (!grads[0].defined()) return out;
    // The region is taken after the copy, so that under create_graph it shares full's history.
    Tensor full = geom_.zero_base(grads[0]).first;
    full.copy_(grads[0]);
    Tensor region = full.as_strided(geom_.sizes, geom_.strides, geom_.offset);
    variable_list res = (*fn_)({region.clone()});
    BRASA_INTERNAL_ASSERT(res.size() == out.size(), "CopySlices: ", fn_->name(), " returned ",
                          res.size(), " gradients, expected ", out.size());
    if (res[0].defined()) {
      region.copy_(res[0]);
    } else {
      region.zero_();
    }
    out[0] = full;
    for (size_t i = 1; i < res.size(); ++i) out[i] = std::move(res[i]);
    return out;
  }
  void release_variables() override { fn_->release_variables(); }

 private:
  Geometry geom_;
  std::shared_ptr<Node> fn_;
};

}  // namespace

std::shared_ptr<Node> make_view_of_base_node(const Tensor& base, const Tensor& view) {
  return std::make_shared<AsStridedBackward>(Geometry(base, view));
}

std::shared_ptr<Node> make_copy_slices_node(const Tensor& base, const Tensor& view,
                                            std::shared_ptr<Node> fn) {
  auto node = std::make_shared<CopySlices>(Geometry(base, view), std::move(fn));
  node->set_forward_op("copy_slices");
  return node;
}

}  // namespace brasa::autograd
