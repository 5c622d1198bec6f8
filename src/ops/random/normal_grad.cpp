// at::normal with tensor or scalar parameters (brasa/ops/normal.h), composed from normal_ and
// the in-place arithmetic in the order libtorch 1.13 uses, so that a seeded MT19937 generator gives
// libtorch's values bit for bit (Note [libtorch CPU sampling]): a std tensor scales standard draws
// (z * std + mean); a scalar std is drawn with the draws (normal_(0, std) + mean). The result is
// always contiguous. The draws do not depend on mean and std differentiably: their gradients are
// zeros, under libtorch's node names (NormalBackward1, 2, 3): that node is what the functions add
// to existing ops, so they live with the derivatives (a _grad file may build autograd nodes).
#include <algorithm>
#include <vector>

#include "autograd/function_node.h"
#include "brasa/core/error.h"
#include "brasa/dispatch/grad_mode.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/normal.h"
#include "brasa/ops/window_unpacked.h"

namespace brasa {
namespace {

void check_std(double std) {
  BRASA_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
}

void check_std(const Tensor& std) {
  BRASA_CHECK_TYPE(!is_complex_type(std.scalar_type()),
                   "normal expects a real std tensor, got dtype ", std.scalar_type());
  NoGradGuard no_grad;
  BRASA_CHECK(std.numel() == 0 || std.min().ge(0).item<bool>(),
              "normal expects all elements of std >= 0.0");
}

// The broadcast shape of mean and `other` (std, or out for normal_out(out, mean, std)).
std::vector<int64_t> broadcast_shape(const Tensor& mean, const Tensor& std,
                                     const char* other = "std") {
  const int64_t n = std::max(mean.dim(), std.dim());
  std::vector<int64_t> shape(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = i < n - mean.dim() ? 1 : mean.size(i - (n - mean.dim()));
    const int64_t b = i < n - std.dim() ? 1 : std.size(i - (n - std.dim()));
    BRASA_CHECK(a == b || a == 1 || b == 1, "normal: the shapes of mean ", mean.sizes(), " and ",
                other, " ", std.sizes(), " do not broadcast");
    shape[static_cast<size_t>(i)] = a == 1 ? b : a;
  }
  return shape;
}

void resize_to(const Tensor& out, IntArrayRef shape) {
  if (!out.sizes().equals(shape)) out.resize_(shape);
}

// The draws into out (resized to `shape`); std_value is used when std is undefined, mean_value
// when mean is.
const Tensor& fill(const Tensor& out, IntArrayRef shape, const Tensor& mean, double mean_value,
                   const Tensor& std, double std_value, std::optional<Generator> gen) {
  NoGradGuard no_grad;
  resize_to(out, shape);
  if (std.defined()) {
    out.normal_(0, 1, gen);
    out.mul_(std);
  } else {
    out.normal_(0, std_value, gen);
  }
  if (mean.defined()) return out.add_(mean);
  return out.add_(mean_value);
}

// The gradient of each tensor argument is zero (grad-shaped; the engine sums it to the input's).
Tensor with_zero_grads(const char* node, const char* op, const Tensor& result,
                       std::initializer_list<const Tensor*> inputs) {
  if (!autograd::any_requires_grad(inputs)) return result;
  const size_t n = inputs.size();
  auto fn = autograd::make_function_node(
      node, op, inputs,
      [n](autograd::BackwardContext& ctx) -> autograd::variable_list {
        autograd::variable_list grads(n);
        for (size_t i = 0; i < n; ++i) {
          if (ctx.needs(i)) grads[i] = zeros_like(ctx.grad(0));
        }
        return grads;
      },
      false);
  autograd::set_history(result, fn);
  return result;
}

// out= records no history, so no argument may require grad (as for every out= form).
void check_out(const Tensor& out, const Tensor& a, const Tensor& b = Tensor()) {
  if (autograd::any_requires_grad({&out, &a, &b})) autograd::throw_out_with_grad("normal");
}

}  // namespace

Tensor normal(const Tensor& mean, double std, std::optional<Generator> gen) {
  check_std(std);
  Tensor out = empty(mean.sizes(), mean.options());
  fill(out, mean.sizes(), mean, 0, Tensor(), std, gen);
  return with_zero_grads("NormalBackward1", "normal", out, {&mean});
}

Tensor normal(double mean, const Tensor& std, std::optional<Generator> gen) {
  check_std(std);
  Tensor out = empty(std.sizes(), std.options());
  fill(out, std.sizes(), Tensor(), mean, std, 0, gen);
  return with_zero_grads("NormalBackward2", "normal", out, {&std});
}

Tensor normal(const Tensor& mean, const Tensor& std, std::optional<Generator> gen) {
  check_std(std);
  const std::vector<int64_t> shape = broadcast_shape(mean, std);
  Tensor out = empty(shape, mean.options());
  fill(out, shape, mean, 0, std, 0, gen);
  return with_zero_grads("NormalBackward3", "normal", out, {&mean, &std});
}

Tensor normal(double mean, double std, IntArrayRef size, std::optional<Generator> gen,
              const TensorOptions& options) {
  check_std(std);
  NoGradGuard no_grad;
  Tensor out = empty(size, options.requires_grad(std::nullopt));
  out.normal_(mean, std, gen);
  return options.requires_grad() ? out.requires_grad_() : out;
}

Tensor normal(double mean, double std, IntArrayRef size, std::optional<Generator> gen,
              std::optional<ScalarType> dtype, std::optional<Layout> layout,
              std::optional<Device> device, std::optional<bool> pin_memory) {
  return normal(mean, std, size, gen,
                detail::unpacked_options("normal", dtype, layout, device, pin_memory));
}

Tensor& normal_out(Tensor& out, const Tensor& mean, double std, std::optional<Generator> gen) {
  check_std(std);
  check_out(out, mean);
  // libtorch draws into out's shape broadcast with mean's
  fill(out, broadcast_shape(mean, out, "out"), mean, 0, Tensor(), std, gen);
  return out;
}

Tensor& normal_out(Tensor& out, double mean, const Tensor& std, std::optional<Generator> gen) {
  check_std(std);
  check_out(out, std);
  fill(out, std.sizes(), Tensor(), mean, std, 0, gen);
  return out;
}

Tensor& normal_out(Tensor& out, const Tensor& mean, const Tensor& std,
                   std::optional<Generator> gen) {
  check_std(std);
  check_out(out, mean, std);
  fill(out, broadcast_shape(mean, std), mean, 0, std, 0, gen);
  return out;
}

Tensor& normal_out(Tensor& out, double mean, double std, IntArrayRef size,
                   std::optional<Generator> gen) {
  check_std(std);
  check_out(out, Tensor());
  NoGradGuard no_grad;
  resize_to(out, size);
  out.normal_(mean, std, gen);
  return out;
}

}  // namespace brasa
