#include "compile/guards.h"

#include <sstream>

#include "brasa/dispatch/grad_mode.h"

namespace brasa::compiler {

// Note [Guards]
// A graph is replayed only for inputs that agree with the trace on everything that can change
// which ops run or how: dtype, device, rank, contiguity, requires_grad, aliasing between inputs
// and the grad mode, and on the size of every dim that is not dynamic. Sizes are arguments of
// the generated kernels, so a dynamic dim never needs a compiler run; a static dim whose size
// changes costs a new trace (Dynamic::Automatic then makes the dim dynamic if the new trace has
// the same structure). Sizes 0 and 1 stay specialised, as they change broadcasting: a dynamic dim
// accepts sizes of 2 and more only (fused kernels were planned for shapes that agree at the trace).

namespace {

int alias_index(const std::vector<Tensor>& inputs, size_t i) {
  for (size_t j = 0; j < i; ++j)
    if (inputs[j].is_same(inputs[i])) return static_cast<int>(j);
  return -1;
}

}  // namespace

Guards Guards::of(const std::vector<Tensor>& inputs, bool all_dynamic) {
  Guards g;
  g.grad_mode = GradMode::is_enabled();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    InputGuard ig;
    ig.dtype = t.dtype();
    ig.device = t.device();
    ig.sizes = t.sizes().vec();
    ig.dynamic.assign(ig.sizes.size(), false);
    if (all_dynamic)
      for (size_t d = 0; d < ig.sizes.size(); ++d) ig.dynamic[d] = ig.sizes[d] > 1;
    ig.contiguous = t.is_contiguous();
    ig.requires_grad = t.requires_grad();
    ig.alias_of = alias_index(inputs, i);
    g.inputs.push_back(std::move(ig));
  }
  return g;
}

std::string Guards::check(const std::vector<Tensor>& in, bool* size_only) const {
  if (size_only) *size_only = false;
  std::ostringstream os;
  if (in.size() != inputs.size()) {
    os << "expected " << inputs.size() << " inputs, got " << in.size();
    return os.str();
  }
  if (GradMode::is_enabled() != grad_mode) {
    os << "grad mode: expected " << (grad_mode ? "enabled" : "disabled") << ", got "
       << (grad_mode ? "disabled" : "enabled");
    return os.str();
  }
  std::string size_failure;
  for (size_t i = 0; i < in.size(); ++i) {
    const InputGuard& g = inputs[i];
    const Tensor& t = in[i];
    if (t.dtype() != g.dtype) {
      os << "input " << i << " dtype: expected " << g.dtype << ", got " << t.dtype();
    } else if (t.device() != g.device) {
      os << "input " << i << " device: expected " << g.device << ", got " << t.device();
    } else if (t.dim() != static_cast<int64_t>(g.sizes.size())) {
      os << "input " << i << " rank: expected " << g.sizes.size() << ", got " << t.dim();
    } else if (t.is_contiguous() != g.contiguous) {
      os << "input " << i << ": expected a " << (g.contiguous ? "contiguous" : "non-contiguous")
         << " tensor";
    } else if (t.requires_grad() != g.requires_grad) {
      os << "input " << i << " requires_grad: expected " << (g.requires_grad ? "true" : "false");
    } else if (alias_index(in, i) != g.alias_of) {
      os << "input " << i << ": aliasing between inputs differs from the trace";
    } else {
      for (size_t d = 0; d < g.sizes.size() && size_failure.empty(); ++d) {
        const int64_t got = t.sizes()[d];
        if (g.dynamic[d] ? got >= 2 : got == g.sizes[d]) continue;
        size_failure = "input " + std::to_string(i) + " dim " + std::to_string(d) + ": expected " +
                       (g.dynamic[d] ? std::string("a dynamic size of at least 2")
                                     : std::to_string(g.sizes[d])) +
                       ", got " + std::to_string(got);
      }
      continue;
    }
    return os.str();
  }
  if (size_only) *size_only = !size_failure.empty();
  return size_failure;
}

bool Guards::generalise(const std::vector<Tensor>& in) {
  for (size_t i = 0; i < in.size(); ++i)
    for (size_t d = 0; d < inputs[i].sizes.size(); ++d) {
      const int64_t was = inputs[i].sizes[d], now = in[i].sizes()[d];
      if (inputs[i].dynamic[d] ? now >= 2 : was == now) continue;
      if (inputs[i].dynamic[d] || was <= 1 || now <= 1) return false;
    }
  for (size_t i = 0; i < in.size(); ++i)
    for (size_t d = 0; d < inputs[i].sizes.size(); ++d)
      if (inputs[i].sizes[d] != in[i].sizes()[d]) inputs[i].dynamic[d] = true;
  return true;
}

}  // namespace brasa::compiler
