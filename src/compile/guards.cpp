#include "compile/guards.h"

#include <algorithm>
#include <climits>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "brasa/compile.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
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

struct Mark {
  const void* data;  // the mark is for this tensor only if its data is still there
  int64_t dim, min, max;
};
std::mutex g_marks_mutex;
std::unordered_map<const TensorImpl*, std::vector<Mark>> g_marks;

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
    ig.min.assign(ig.sizes.size(), 2);
    ig.max.assign(ig.sizes.size(), INT64_MAX);
    if (all_dynamic)
      for (size_t d = 0; d < ig.sizes.size(); ++d) ig.dynamic[d] = ig.sizes[d] > 1;
    {
      std::lock_guard<std::mutex> lock(g_marks_mutex);
      auto it = g_marks.find(t.unsafeGetTensorImpl());
      if (it != g_marks.end())
        for (const Mark& m : it->second)
          if (m.data == t.data_ptr() && m.dim < t.dim()) {
            ig.dynamic[m.dim] = true;
            ig.min[m.dim] = m.min;
            ig.max[m.dim] = m.max;
          }
    }
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
        if (g.dynamic[d] ? got >= g.min[d] && got <= g.max[d] : got == g.sizes[d]) continue;
        std::string expected = std::to_string(g.sizes[d]);
        if (g.dynamic[d] && g.max[d] == INT64_MAX)
          expected = "a dynamic size of at least " + std::to_string(g.min[d]);
        else if (g.dynamic[d])
          expected = "a dynamic size in [" + std::to_string(g.min[d]) + ", " +
                     std::to_string(g.max[d]) + "]";
        size_failure = "input " + std::to_string(i) + " dim " + std::to_string(d) + ": expected " +
                       expected + ", got " + std::to_string(got);
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
      if (inputs[i].dynamic[d] ? now >= inputs[i].min[d] && now <= inputs[i].max[d] : was == now)
        continue;
      if (inputs[i].dynamic[d] || was <= 1 || now <= 1) return false;
    }
  for (size_t i = 0; i < in.size(); ++i)
    for (size_t d = 0; d < inputs[i].sizes.size(); ++d)
      if (inputs[i].sizes[d] != in[i].sizes()[d]) inputs[i].dynamic[d] = true;
  return true;
}

}  // namespace brasa::compiler

namespace brasa {

void mark_dynamic(const Tensor& t, int64_t dim, int64_t min, int64_t max) {
  BRASA_CHECK(t.defined(), "mark_dynamic: got an undefined tensor");
  const int64_t d = detail::wrap_dim(dim, t.dim(), "mark_dynamic");
  min = std::max<int64_t>(min, 2);
  BRASA_CHECK(min <= max && t.size(d) >= min && t.size(d) <= max, "mark_dynamic: dim ", d,
              " has size ", t.size(d), ", outside the range [", min, ", ", max,
              "] (dynamic sizes start at 2)");
  fused_eager_flush();  // the mark keys on the data pointer, which a pending tensor lacks
  std::lock_guard<std::mutex> lock(compiler::g_marks_mutex);
  auto& marks = compiler::g_marks[t.unsafeGetTensorImpl()];
  std::erase_if(marks,
                [&](const compiler::Mark& m) { return m.data != t.data_ptr() || m.dim == d; });
  marks.push_back({t.data_ptr(), d, min, max});
}

}  // namespace brasa
