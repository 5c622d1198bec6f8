// brasa::accelerator: the registered PrivateUse1 backend is the accelerator (PyTorch's rule: a
// PrivateUse1 backend wins over built-in ones); brasa has no built-in accelerator yet.
#include "brasa/backend/accelerator.h"

#include "backends/extension/startup.h"
#include "brasa/backend/backend.h"
#include "brasa/core/error.h"
#include "core/device_hooks.h"

namespace brasa::accelerator {
namespace {
backend::DeviceRuntime* accelerator_runtime() {
  detail::load_startup_backends();
  return backend::runtime(kPrivateUse1);
}
backend::DeviceRuntime& need_runtime(const char* what) {
  backend::DeviceRuntime* r = accelerator_runtime();
  BRASA_CHECK(r != nullptr, "accelerator::", what, ": there is no accelerator (no backend is ",
              "registered; load one with brasa::backend::load_backend or BRASA_BACKENDS)");
  return *r;
}
}  // namespace

std::optional<Device> current_accelerator(bool check_available) {
  if (!accelerator_runtime()) return std::nullopt;
  if (check_available && !is_available()) return std::nullopt;
  return Device(kPrivateUse1);
}

int device_count() noexcept {
  try {
    backend::DeviceRuntime* r = accelerator_runtime();
    return r ? r->device_count() : 0;
  } catch (...) {
    return 0;  // a backend that fails to load has no devices
  }
}

bool is_available() noexcept { return device_count() > 0; }

int current_device_index() { return need_runtime("current_device_index").current_device(); }

void set_device_index(int index) {
  if (index < 0) return;
  backend::DeviceRuntime& r = need_runtime("set_device_index");
  const int n = r.device_count();
  BRASA_CHECK(index < n, "accelerator::set_device_index: device index ", index,
              " is out of range for ", device_type_name(kPrivateUse1), ", which has ", n, " device",
              n == 1 ? "" : "s");
  r.set_device(index);
}

void set_device_index(Device device) {
  BRASA_CHECK(device.type() == kPrivateUse1, "accelerator::set_device_index: expected a ",
              device_type_name(kPrivateUse1), " device (the accelerator), got ", device);
  set_device_index(device.has_index() ? int(device.index()) : -1);
}

void synchronize(int index) {
  backend::DeviceRuntime* r = accelerator_runtime();
  if (!r || r->device_count() == 0) return;
  r->synchronize(index < 0 ? r->current_device() : index);
}

DeviceIndexGuard::DeviceIndexGuard(int index) {
  backend::DeviceRuntime* runtime = backend::runtime(kPrivateUse1);
  if (index < 0 || !runtime) return;
  backend::DeviceRuntime& r = *runtime;
  previous_ = r.current_device();
  if (previous_ == index) {
    previous_ = -1;
    return;
  }
  set_device_index(index);
}

DeviceIndexGuard::~DeviceIndexGuard() {
  if (previous_ >= 0) backend::runtime(kPrivateUse1)->set_device(previous_);
}

}  // namespace brasa::accelerator

namespace brasa::detail {
namespace {
// A PrivateUse1 tensor made for "npu" lives on the current npu device, like PyTorch's; its bytes
// are allocated with that device current.
DataPtr allocate_privateuse1(Device& device, size_t nbytes, Allocator*& allocator) {
  if (!device.has_index()) {
    backend::DeviceRuntime* r = backend::runtime(kPrivateUse1);
    device = Device(kPrivateUse1, static_cast<int8_t>(r ? r->current_device() : 0));
  }
  allocator = get_allocator(kPrivateUse1);
  accelerator::DeviceIndexGuard on(device.index());
  return allocator->allocate(nbytes);
}

// Note [Core hooks]: installed before main, so core reaches the registry without including it.
const bool hooks_installed = [] {
  core_hooks().load_startup_backends = &load_startup_backends;
  core_hooks().allocate_privateuse1 = &allocate_privateuse1;
  return true;
}();
}  // namespace
}  // namespace brasa::detail
