#include "backend_mode.h"

#include "brasa/backend/backend.h"
#include "compare.h"

namespace brasa::conformance {
namespace {

// The same view of a copy of t's whole storage on `device` (a fresh copy even on the same device,
// so in-place cases start from the fixture's values on each run).
Tensor copy_view(const Tensor& t, Device device) {
  if (!t.defined()) return t;
  const size_t n = t.storage()->nbytes();
  Allocator* alloc = get_allocator(device.type());
  const Device where = device.is_cpu() || device.has_index() ? device : Device(device.type(), 0);
  Storage s = make_intrusive<StorageImpl>(alloc->allocate(n), n, where, alloc);
  backend::copy_bytes(where, s->data(), t.storage()->device(), t.storage()->data(), n);
  auto impl = make_intrusive<TensorImpl>(std::move(s), t.dtype(), where);
  impl->set_sizes_and_strides(t.sizes(), t.strides(), t.storage_offset());
  impl->set_wrapped_number(t.unsafeGetTensorImpl()->is_wrapped_number());
  Tensor out(std::move(impl));
  if (t.requires_grad()) out.requires_grad_(true);
  return out;
}

// 0-d wrapped numbers stay on the CPU (as a Python scalar would); other tensors move.
Value move_value(const Value& v, Device device) {
  Value out = v;
  if (v.tag == Tag::Tensor && v.tensor.defined()) {
    const bool number = v.tensor.unsafeGetTensorImpl()->is_wrapped_number();
    out.tensor = number && !device.is_cpu() ? copy_view(v.tensor, Device(kCPU))
                                            : copy_view(v.tensor, device);
  }
  for (size_t k = 0; k < v.list.size(); ++k) out.list[k] = move_value(v.list[k], device);
  return out;
}

Case move_case(const Case& c, Device device) {
  Case m = c;
  for (Value& v : m.args) v = move_value(v, device);
  for (auto& [_, v] : m.kwargs) v = move_value(v, device);
  return m;
}

Value to_cpu(const Value& v) {
  Value out = v;
  if (v.tag == Tag::Tensor && v.tensor.defined() && !v.tensor.is_cpu())
    out.tensor = copy_view(v.tensor, Device(kCPU));
  for (size_t k = 0; k < v.list.size(); ++k) out.list[k] = to_cpu(v.list[k]);
  return out;
}

struct Outcome {
  bool threw = false;
  std::string error;
  Value value;
  std::vector<Tensor> grads;  // on the CPU; undefined where an input got none
  std::string grad_error;
};

Outcome run_on(const Case& c, const OpFn& fn, Device device) {
  Outcome o;
  Case m = move_case(c, device);
  try {
    o.value = to_cpu(fn(Args(m)));
  } catch (const brasa::Error& e) {
    o.threw = true;
    o.error = e.what();
    return o;
  }
  if (!c.grad) return o;
  // Gradients: the case's float inputs as leaves, PyTorch's grad_outputs as the seeds.
  Case g = move_case(c, device);
  std::vector<Tensor> leaves;
  for (const GradInput& in : c.grad->inputs) {
    Value* slot = nullptr;
    if (in.is_kwarg) {
      for (auto& [name, v] : g.kwargs)
        if (name == in.name) slot = &v;
    } else if (in.index < g.args.size()) {
      slot = &g.args[in.index];
    }
    if (!slot) throw HarnessError("grad input names a missing argument");
    slot->tensor = slot->tensor.detach().requires_grad_(true);
    leaves.push_back(slot->tensor);
  }
  try {
    std::vector<Tensor> outs = differentiable_outputs(fn(Args(g)));
    std::vector<Tensor> seeds;
    for (const Tensor& s : c.grad->grad_outputs) seeds.push_back(copy_view(s, device));
    if (outs.size() != seeds.size()) {
      o.grad_error = std::to_string(outs.size()) + " outputs require grad";
      return o;
    }
    for (Tensor& t : brasa::autograd::grad(outs, leaves, seeds, std::nullopt, false, true))
      o.grads.push_back(t.defined() ? copy_view(t, Device(kCPU)) : t);
  } catch (const brasa::Error& e) {
    o.grad_error = std::string("threw: ") + e.what();
  }
  return o;
}

}  // namespace

std::string run_case_on_device(const Case& c, const OpFn& fn, Device device) {
  Outcome cpu = run_on(c, fn, Device(kCPU));
  Outcome dev = run_on(c, fn, device);
  const std::string on = " on " + device.str();
  if (cpu.threw != dev.threw)
    return cpu.threw ? "missing-error: the CPU threw (" + cpu.error + ") but not" + on
                     : "unexpected-error: brasa threw" + on + ": " + dev.error;
  if (cpu.threw) return "";
  std::string why = compare_values(cpu.value, dev.value, c.rtol, c.atol, c.flags);
  if (!why.empty()) return why + on;
  if (!c.grad || !cpu.grad_error.empty()) return "";
  if (!dev.grad_error.empty()) return "grad: " + dev.grad_error + on;
  if (dev.grads.size() != cpu.grads.size()) return "grad: a different number of gradients" + on;
  for (size_t k = 0; k < cpu.grads.size(); ++k) {
    if (cpu.grads[k].defined() != dev.grads[k].defined())
      return "grad: input " + std::to_string(k) + " has a gradient on only one device";
    if (!cpu.grads[k].defined()) continue;
    why = compare_values(Value(cpu.grads[k]), Value(dev.grads[k]), c.grad->rtol, c.grad->atol, 0);
    if (!why.empty()) return "grad: input " + std::to_string(k) + ": " + why + on;
  }
  return "";
}

}  // namespace brasa::conformance
