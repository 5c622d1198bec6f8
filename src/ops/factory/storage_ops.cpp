// from_file, is_pinned, pin_memory, lift and lift_fresh (brasa/ops/storage.h).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "brasa/core/dtype.h"
#include "brasa/core/empty.h"
#include "brasa/core/error.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/storage.h"

namespace brasa {
namespace {

// Closes the descriptor on every path.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

Tensor from_file(std::string_view filename, std::optional<bool> shared, std::optional<int64_t> size,
                 const TensorOptions& options) {
  const std::string name(filename);
  const int64_t n = size.value_or(0);
  BRASA_CHECK(n >= 0, "from_file: size must be non-negative, got ", n);
  BRASA_CHECK(options.device().is_cpu(),
              "from_file: only CPU tensors can be read from a file, got ", options.device());
  const ScalarType dt = options.has_dtype() ? options.dtype() : get_default_dtype();
  const bool map = shared.value_or(false);
  const int64_t bytes = n * int64_t(element_size(dt));
  FileDescriptor f{::open(name.c_str(), map ? O_RDWR : O_RDONLY)};
  BRASA_CHECK(f.fd >= 0, "from_file: unable to open file <", name, "> in ",
              map ? "read-write" : "read-only", " mode: ", std::strerror(errno));
  struct stat st {};
  BRASA_CHECK(::fstat(f.fd, &st) == 0, "from_file: unable to stat <", name,
              ">: ", std::strerror(errno));
  BRASA_CHECK(int64_t(st.st_size) >= bytes, "from_file: file <", name, "> has ", st.st_size,
              " bytes, fewer than the ", bytes, " bytes of ", n, " elements of ", dt);
  Tensor result;
  if (map && bytes > 0) {
    void* p = ::mmap(nullptr, size_t(bytes), PROT_READ | PROT_WRITE, MAP_SHARED, f.fd, 0);
    BRASA_CHECK(p != MAP_FAILED, "from_file: unable to map ", bytes, " bytes of <", name,
                ">: ", std::strerror(errno));
    result = from_blob(
        p, {n}, [bytes](void* q) { ::munmap(q, size_t(bytes)); }, TensorOptions().dtype(dt));
  } else {
    result = empty({n}, TensorOptions().dtype(dt));
    char* out = static_cast<char*>(result.data_ptr());
    int64_t done = 0;
    while (done < bytes) {
      const ssize_t got = ::pread(f.fd, out + done, size_t(bytes - done), off_t(done));
      BRASA_CHECK(got > 0, "from_file: reading <", name, "> failed after ", done, " of ", bytes,
                  " bytes: ", got == 0 ? "unexpected end of file" : std::strerror(errno));
      done += got;
    }
  }
  if (options.requires_grad()) result.requires_grad_(true);
  return result;
}

bool is_pinned(const Tensor& self, std::optional<Device>) {
  BRASA_CHECK(self.defined(), "is_pinned: got an undefined tensor");
  return false;
}

Tensor pin_memory(const Tensor& self, std::optional<Device>) {
  BRASA_CHECK(self.defined(), "pin_memory: got an undefined tensor");
  BRASA_THROW(NotImplementedError,
              "pin_memory: pinned memory needs a CUDA backend, and brasa has none (as libtorch "
              "built without CUDA); use the tensor as it is");
}

Tensor lift(const Tensor& self) { return self; }
Tensor lift_fresh(const Tensor& self) { return self; }

}  // namespace brasa
