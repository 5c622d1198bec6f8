// The boxed CPU fallback of plugin backends (Note [CPU fallback]) and its report.
#include "brasa/backend/fallback.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "brasa/backend/accelerator.h"
#include "brasa/backend/backend.h"
#include "brasa/backend/library.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/core/warning.h"

namespace brasa::backend {
namespace {

// Note [CPU fallback]
// The device tensors of a call are grouped by storage, and each storage's bytes spanning all of
// its tensors are copied to one CPU storage once, so the CPU tensors keep the device tensors'
// sizes, strides and sharing (a.add_(a.t()) still sees itself). The op's CPU kernel runs on them;
// then each storage holding a written argument is copied back whole (bytes between the views are
// the device's own, copied out and in unchanged), results that are written inputs become the
// caller's device tensors, results that alias an input become views of the device storage, and
// fresh results are copied to the device with their geometry. View ops are refused: their results
// would have to alias device memory.

struct Counts {
  std::mutex mutex;
  std::map<std::string, int64_t> calls;
  std::set<std::string> warned;  // not cleared by reset_fallback_report: one warning per process
};
Counts& counts() {
  static Counts c;
  return c;
}

FallbackMode mode_from_env() {
  const char* v = std::getenv("BRASA_FALLBACK");
  std::string s = v ? v : "";
  if (s == "error") return FallbackMode::Error;
  if (s == "silent") return FallbackMode::Silent;
  return FallbackMode::Warn;
}
std::atomic<FallbackMode>& mode_slot() {
  static std::atomic<FallbackMode> m{mode_from_env()};
  return m;
}

constexpr size_t kAlign = 16;  // every element size divides it

size_t span_begin(const Tensor& t) {
  return static_cast<size_t>(t.storage_offset()) * t.itemsize();
}
size_t span_end(const Tensor& t) {
  int64_t last = t.storage_offset();
  for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
  return static_cast<size_t>(last + 1) * t.itemsize();
}

Tensor tensor_on(Storage storage, const Tensor& like, IntArrayRef sizes, IntArrayRef strides,
                 int64_t offset) {
  Device device = storage->device();
  auto impl = make_intrusive<TensorImpl>(std::move(storage), like.dtype(), device);
  impl->set_sizes_and_strides(sizes, strides, offset);
  return Tensor(std::move(impl));
}

// One device storage and the CPU storage holding bytes [lo, hi) of it.
struct StorageCopy {
  Storage device;
  Storage cpu;
  size_t lo = SIZE_MAX, hi = 0;
  bool read = true;
  bool dirty = false;
};

// One device tensor of the call and its CPU stand-in.
struct Moved {
  Tensor device;
  Tensor cpu;
  StorageCopy* group = nullptr;  // null for empty tensors (nothing to copy)
  bool written = false;
};

class Fallback {
 public:
  Fallback(const OperatorHandle& op, Stack& stack) : op_(op), stack_(stack) {}

  void run() {
    collect();
    copy_in();
    op_.call_boxed(DispatchKeySet(DispatchKey::CPU), stack_);
    copy_back();
    for (Value& v : stack_) move_result(v);
  }

 private:
  bool is_device(const Tensor& t) const { return t.defined() && !t.is_cpu(); }

  void note(Tensor& slot, bool written) {
    if (!is_device(slot)) return;
    moved_.push_back({slot, Tensor(), nullptr, written});
    slots_.push_back(&slot);
  }

  // Finds the device tensors (and Device arguments) of the call.
  void collect() {
    const SchemaInfo& info = op_.schema_info();
    for (size_t i = 0; i < stack_.size(); ++i) {
      bool written = i < info.arguments.size() && info.arguments[i].written;
      Value& v = stack_[i];
      if (v.is_tensor()) {
        note(v.tensor(), written);
      } else if (v.is_tensor_list()) {
        for (Tensor& t : v.get<std::vector<Tensor>>()) note(t, written);
      } else if (v.is<Device>() && !v.get<Device>().is_cpu()) {
        if (!have_target_) target_ = v.get<Device>(), have_target_ = true;
        v = Value(Device(kCPU));
      }
    }
    if (!have_target_ && !moved_.empty()) target_ = moved_.front().device.device();
    // Group by storage: one CPU copy per device storage, spanning all of its tensors.
    for (Moved& m : moved_) {
      if (m.device.numel() == 0) continue;
      StorageImpl* s = m.device.storage().get();
      StorageCopy& g = groups_[s];
      g.device = m.device.storage();
      g.lo = std::min(g.lo, span_begin(m.device) / kAlign * kAlign);
      g.hi = std::max(g.hi, span_end(m.device));
      m.group = &g;
    }
    // copy_ and fill_ overwrite a dense self: its old bytes need not be read.
    if ((op_.name() == "copy_" || op_.name() == "fill_") && !moved_.empty() &&
        stack_[0].is_tensor() && slots_[0] == &stack_[0].tensor() && moved_[0].group &&
        moved_[0].device.is_contiguous()) {
      // Only when the copy spans exactly self's bytes (the span starts aligned down).
      int sharing = 0;
      for (const Moved& m : moved_) sharing += m.group == moved_[0].group;
      if (sharing == 1 && moved_[0].group->lo == span_begin(moved_[0].device))
        moved_[0].group->read = false;
    }
  }

  void copy_in() {
    Allocator* cpu = get_allocator(kCPU);
    for (auto& [_, g] : groups_) {
      size_t n = g.hi - g.lo;
      g.cpu = make_intrusive<StorageImpl>(cpu->allocate(n), n, Device(kCPU), cpu);
      if (g.read)
        copy_bytes(Device(kCPU), g.cpu->data(), g.device->device(),
                   static_cast<const char*>(g.device->data()) + g.lo, n);
    }
    for (size_t k = 0; k < moved_.size(); ++k) {
      Moved& m = moved_[k];
      const Tensor& d = m.device;
      if (!m.group) {
        m.cpu =
            brasa::detail::empty_strided_generic(d.sizes(), d.strides(), d.dtype(), Device(kCPU));
      } else {
        int64_t offset = static_cast<int64_t>((span_begin(d) - m.group->lo) / d.itemsize());
        m.cpu = tensor_on(m.group->cpu, d, d.sizes(), d.strides(), offset);
      }
      *slots_[k] = m.cpu;
    }
  }

  void copy_back() {
    for (Moved& m : moved_) {
      if (!m.written) continue;
      const bool same_bytes = m.group && m.cpu.storage().get() == m.group->cpu.get() &&
                              m.cpu.sizes().vec() == m.device.sizes().vec() &&
                              m.cpu.strides().vec() == m.device.strides().vec();
      if (same_bytes) {
        m.group->dirty = true;
        continue;
      }
      // The kernel resized an out= tensor: resize the device tensor and copy the result whole.
      Tensor src = m.cpu.contiguous();
      m.device.resize_(src.sizes());
      copy_bytes(m.device.device(), m.device.data_ptr(), Device(kCPU), src.data_ptr(),
                 src.nbytes());
    }
    for (auto& [_, g] : groups_)
      if (g.dirty)
        copy_bytes(g.device->device(), static_cast<char*>(g.device->data()) + g.lo, Device(kCPU),
                   g.cpu->data(), g.hi - g.lo);
  }

  Tensor to_device(const Tensor& r) {
    if (!r.defined() || !r.is_cpu()) return r;
    for (const Moved& m : moved_)
      if (m.cpu.is_same(r)) return m.device;
    // A result aliasing an input's bytes is the same view of the device storage.
    for (auto& [_, g] : groups_)
      if (r.storage().get() == g.cpu.get())
        return tensor_on(g.device, r, r.sizes(), r.strides(),
                         static_cast<int64_t>((span_begin(r) + g.lo) / r.itemsize()));
    accelerator::DeviceIndexGuard guard(target_.index());
    if (r.numel() == 0)
      return brasa::detail::empty_strided_generic(r.sizes(), r.strides(), r.dtype(), target_);
    size_t lo = span_begin(r) / kAlign * kAlign, n = span_end(r) - lo;
    Allocator* alloc = get_allocator(target_.type());
    const DeviceRuntime* rt = runtime(target_.type());
    const Device where =
        target_.has_index()
            ? target_
            : Device(target_.type(), static_cast<int8_t>(rt ? rt->current_device() : 0));
    Storage s = make_intrusive<StorageImpl>(alloc->allocate(n), n, where, alloc);
    copy_bytes(where, s->data(), Device(kCPU), static_cast<const char*>(r.storage()->data()) + lo,
               n);
    return tensor_on(std::move(s), r, r.sizes(), r.strides(),
                     static_cast<int64_t>((span_begin(r) - lo) / r.itemsize()));
  }

  void move_result(Value& v) {
    if (v.is_tensor()) {
      v.tensor() = to_device(v.tensor());
    } else if (v.is_tensor_list()) {
      for (Tensor& t : v.get<std::vector<Tensor>>()) t = to_device(t);
    }
  }

  const OperatorHandle& op_;
  Stack& stack_;
  std::vector<Moved> moved_;
  std::vector<Tensor*> slots_;
  std::map<StorageImpl*, StorageCopy> groups_;
  Device target_ = Device(kCPU);
  bool have_target_ = false;
};

Device device_of_call(const Stack& stack) {
  for (const Value& v : stack) {
    if (v.is<Device>() && !v.get<Device>().is_cpu()) return v.get<Device>();
    if (v.is_tensor() && v.tensor().defined() && !v.tensor().is_cpu()) return v.tensor().device();
    if (v.is_tensor_list())
      for (const Tensor& t : v.get<std::vector<Tensor>>())
        if (t.defined() && !t.is_cpu()) return t.device();
  }
  return Device(kPrivateUse1);
}

void count_and_warn(const OperatorHandle& op, Device device) {
  bool first;
  {
    Counts& c = counts();
    std::lock_guard<std::mutex> lock(c.mutex);
    ++c.calls[op.name()];
    first = c.warned.insert(op.name()).second;
  }
  if ((first || get_warn_always()) && fallback_mode() == FallbackMode::Warn) {
    std::string dev = device_type_name(device.type());
    warn("the operator '" + op.name() + "' has no " + dev + " kernel and falls back to the CPU " +
         "(its tensors are copied to the CPU and back, which is slow); later calls of '" +
         op.name() + "' fall back without a warning (brasa::backend::fallback_report() counts " +
         "them; BRASA_FALLBACK=error makes them errors)");
  }
}

}  // namespace

void cpu_fallback(const OperatorHandle& op, Stack& stack) {
  const Device device = device_of_call(stack);
  const std::string dev = device_type_name(device.type());
  BRASA_CHECK_NOT_IMPLEMENTED(fallback_mode() != FallbackMode::Error, op.name(), ": the ", dev,
                              " backend has no kernel for it and BRASA_FALLBACK=error forbids "
                              "running it on the CPU (schema: ",
                              op.schema(), ")");
  BRASA_CHECK_NOT_IMPLEMENTED(!op.schema_info().returns_view, op.name(),
                              ": is a view operator and the ", dev,
                              " backend has no kernel for it; a CPU fallback cannot return a view "
                              "of device memory, so the backend must implement it");
  detail::check_devices(op, stack);
  count_and_warn(op, device);
  Fallback(op, stack).run();
}

FallbackMode fallback_mode() { return mode_slot().load(std::memory_order_relaxed); }
void set_fallback_mode(FallbackMode mode) { mode_slot().store(mode); }

std::vector<FallbackCount> fallback_report() {
  std::vector<FallbackCount> out;
  {
    Counts& c = counts();
    std::lock_guard<std::mutex> lock(c.mutex);
    for (const auto& [op, n] : c.calls) out.push_back({op, n});
  }
  std::stable_sort(out.begin(), out.end(), [](const FallbackCount& a, const FallbackCount& b) {
    return a.calls > b.calls;
  });
  return out;
}

void reset_fallback_report() {
  Counts& c = counts();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.calls.clear();
}

void print_fallback_report(std::ostream& os) {
  std::vector<FallbackCount> report = fallback_report();
  int64_t total = 0;
  for (const auto& r : report) total += r.calls;
  os << "CPU fallback: " << report.size() << " ops, " << total << " calls\n";
  for (const auto& r : report)
    os << "  " << r.op << std::string(r.op.size() < 32 ? 32 - r.op.size() : 1, ' ') << r.calls
       << "\n";
}

namespace {
void privateuse1_fallback(const OperatorHandle& op, DispatchKeySet, Stack& stack) {
  cpu_fallback(op, stack);
}
const bool registered = [] {
  set_backend_fallback(DispatchKey::PrivateUse1, &privateuse1_fallback);
  return true;
}();
}  // namespace

}  // namespace brasa::backend
