// The per-device-type registry of backend pieces (allocator, runtime, copier) and byte copies
// between devices built on them.
#include <cstring>
#include <mutex>

#include "brasa/backend/backend.h"
#include "brasa/core/error.h"

namespace brasa::backend {

DeviceRuntime::~DeviceRuntime() = default;
DeviceCopier::~DeviceCopier() = default;

namespace {
constexpr int kTypes = 16;
struct Registry {
  std::mutex mutex;
  DeviceRuntime* runtimes[kTypes] = {};
  DeviceCopier* copiers[kTypes] = {};
  std::string allocator_origin[kTypes], runtime_origin[kTypes], copier_origin[kTypes];
};
Registry& registry() {
  static Registry r;
  return r;
}

void check_pluggable(DeviceType type, const char* what, const void* piece) {
  BRASA_CHECK(type == kPrivateUse1, "register_", what, ": only the PrivateUse1 device type takes ",
              "plugin backends, got ", device_type_name(type));
  BRASA_CHECK(piece != nullptr, "register_", what, ": got a null ", what, " for ",
              device_type_name(type));
}

template <typename T>
void register_piece(DeviceType type, T* piece, T** slot, std::string& slot_origin,
                    const std::string& origin, const char* what) {
  check_pluggable(type, what, piece);
  BRASA_CHECK(*slot == nullptr, "register_", what, ": a ", what, " for ", device_type_name(type),
              " is already registered (by ",
              slot_origin.empty() ? "an unnamed library" : slot_origin,
              "); a backend registers each piece once");
  *slot = piece;
  slot_origin = origin;
}
}  // namespace

void register_allocator(DeviceType type, Allocator* allocator, const std::string& origin) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  check_pluggable(type, "allocator", allocator);
  BRASA_CHECK(r.allocator_origin[static_cast<int>(type)].empty(), "register_allocator: an ",
              "allocator for ", device_type_name(type), " is already registered (by ",
              r.allocator_origin[static_cast<int>(type)], "); a backend registers each piece once");
  r.allocator_origin[static_cast<int>(type)] = origin.empty() ? "an unnamed library" : origin;
  set_allocator(type, allocator);
}
void register_runtime(DeviceType type, DeviceRuntime* runtime, const std::string& origin) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  int i = static_cast<int>(type);
  register_piece(type, runtime, &r.runtimes[i], r.runtime_origin[i], origin, "runtime");
}
void register_copier(DeviceType type, DeviceCopier* copier, const std::string& origin) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  int i = static_cast<int>(type);
  register_piece(type, copier, &r.copiers[i], r.copier_origin[i], origin, "copier");
}

DeviceRuntime* runtime(DeviceType type) { return registry().runtimes[static_cast<int>(type)]; }
DeviceCopier* copier(DeviceType type) { return registry().copiers[static_cast<int>(type)]; }
bool is_registered(DeviceType type) {
  return runtime(type) && copier(type) &&
         !registry().allocator_origin[static_cast<int>(type)].empty();
}

namespace {
DeviceCopier& need_copier(Device d) {
  DeviceCopier* c = copier(d.type());
  BRASA_CHECK_NOT_IMPLEMENTED(c != nullptr, "copy: no copier is registered for device ", d,
                              " (its backend registers one with register_copier)");
  return *c;
}
int index_of(Device d) { return d.has_index() ? d.index() : 0; }
}  // namespace

void copy_bytes(Device dst_device, void* dst, Device src_device, const void* src, size_t nbytes) {
  if (nbytes == 0) return;
  BRASA_CHECK_NOT_IMPLEMENTED(!dst_device.is_meta() && !src_device.is_meta(),
                              "copy: meta tensors have no data (", src_device, " -> ", dst_device,
                              ")");
  const bool dst_host = dst_device.is_cpu(), src_host = src_device.is_cpu();
  if (dst_host && src_host) {
    std::memcpy(dst, src, nbytes);
  } else if (src_host) {
    need_copier(dst_device).copy_to_device(dst, src, nbytes, index_of(dst_device));
  } else if (dst_host) {
    need_copier(src_device).copy_to_host(dst, src, nbytes, index_of(src_device));
  } else if (dst_device == src_device) {
    need_copier(dst_device).copy_on_device(dst, src, nbytes, index_of(dst_device));
  } else {
    BRASA_THROW(NotImplementedError, "copy: no direct copy from ", src_device, " to ", dst_device,
                "; copy through the CPU");
  }
}

}  // namespace brasa::backend
