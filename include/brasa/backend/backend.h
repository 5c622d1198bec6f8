#pragma once
// The backend extension point (Note [Backend extension point]): a library adds a device by
// registering, for the PrivateUse1 device type, an allocator, byte copies to and from the CPU and
// a device runtime (device count, current device, synchronize; streams and events optional), and
// kernels per op (brasa/backend/library.h). Every op it has no kernel for runs on the CPU through
// the fallback (brasa/backend/fallback.h).
//
// Note [Backend extension point]
// Dispatch picks the PrivateUse1 key for any op with a PrivateUse1 tensor (or Device) argument;
// the Autograd key sits above it, so a backend's kernels get autograd without doing anything.
// Device memory is never touched by brasa's CPU code: moving bytes goes through the registered
// DeviceCopier, so a device whose memory the host cannot address works unchanged.

#include <cstddef>
#include <cstdint>
#include <string>

#include "brasa/core/allocator.h"
#include "brasa/core/device.h"

namespace brasa::backend {

/// The device runtime of a backend. device_count() must never throw (0 when no device works).
class BRASA_API DeviceRuntime {
 public:
  virtual ~DeviceRuntime();
  virtual int device_count() const noexcept = 0;
  virtual int current_device() const = 0;
  /// Makes `index` current for this thread; the index is checked against device_count() first.
  virtual void set_device(int index) = 0;
  /// Waits until all work queued on the device is done.
  virtual void synchronize(int index) = 0;

  // Streams and events (optional): a backend without them has one in-order stream per device.
  virtual bool has_streams() const { return false; }
  virtual int64_t current_stream(int /*index*/) const { return 0; }
  virtual void synchronize_stream(int index, int64_t /*stream*/) { synchronize(index); }
  /// Records an event on the current stream; returns its id.
  virtual int64_t record_event(int /*index*/) { return 0; }
  virtual void synchronize_event(int index, int64_t /*event*/) { synchronize(index); }
};

/// Byte copies between host memory and the memory of device `index` (both directions and within
/// the device). `device` pointers are what the backend's allocator returned (plus offsets).
class BRASA_API DeviceCopier {
 public:
  virtual ~DeviceCopier();
  virtual void copy_to_device(void* device_dst, const void* host_src, size_t nbytes, int index) = 0;
  virtual void copy_to_host(void* host_dst, const void* device_src, size_t nbytes, int index) = 0;
  virtual void copy_on_device(void* device_dst, const void* device_src, size_t nbytes,
                              int index) = 0;
};

/// What a backend registers. Each piece once per device type (a second registration throws
/// ValueError naming the first one's origin); only DeviceType::PrivateUse1 is open to plugins.
/// The objects must outlive every tensor of the device (a static object in the library is usual).
BRASA_API void register_allocator(DeviceType type, Allocator* allocator, const std::string& origin);
BRASA_API void register_runtime(DeviceType type, DeviceRuntime* runtime, const std::string& origin);
BRASA_API void register_copier(DeviceType type, DeviceCopier* copier, const std::string& origin);

/// The registered pieces, or null.
BRASA_API DeviceRuntime* runtime(DeviceType type);
BRASA_API DeviceCopier* copier(DeviceType type);
/// True when an allocator, a runtime and a copier are registered for `type`.
BRASA_API bool is_registered(DeviceType type);

/// Copies `nbytes` between any two devices' memory (CPU, or a registered backend's), through the
/// backend's copier. Throws NotImplementedError when a needed piece is not registered.
BRASA_API void copy_bytes(Device dst_device, void* dst, Device src_device, const void* src,
                          size_t nbytes);

/// Loads a backend library (dlopen) and runs its registrations. Throws ValueError naming the path
/// and the loader's reason when it cannot be loaded, and the registration's error when one of its
/// registrations failed. Loading the same path twice is a no-op.
BRASA_API void load_backend(const std::string& path);
/// Loads the libraries named in BRASA_BACKENDS (':'-separated paths) once; brasa calls it itself
/// before the first lookup of a device name it does not know, or of the accelerator.
BRASA_API void load_startup_backends();

}  // namespace brasa::backend
