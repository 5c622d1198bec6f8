// MappedFile, read_file and write_file_atomic (see brasa/archive/file_io.h).

#include "brasa/archive/file_io.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "brasa/archive/error.h"

namespace brasa::serialize {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  BRASA_THROW(SerializationError, what, " '", path, "': ", std::strerror(err));
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void write_all(int fd, const void* data, size_t n, const std::string& path) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", path, errno);
    }
    p += w;
    n -= static_cast<size_t>(w);
  }
}

std::string dir_of(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) fail("cannot open", path, errno);
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) fail("cannot stat", path, errno);
  BRASA_CHECK_TYPED(SerializationError, S_ISREG(st.st_mode), "cannot map '", path,
                    "': not a regular file");
  auto size = static_cast<size_t>(st.st_size);
  uint8_t* data = nullptr;
  if (size > 0) {
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, f.fd, 0);
    if (p == MAP_FAILED) fail("cannot map", path, errno);
    data = static_cast<uint8_t*>(p);
  }
  return std::shared_ptr<MappedFile>(new MappedFile(path, data, size));
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

std::vector<uint8_t> read_file(const std::string& path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) fail("cannot open", path, errno);
  std::vector<uint8_t> bytes;
  uint8_t buf[1 << 16];
  for (;;) {
    ssize_t r = ::read(f.fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      fail("cannot read", path, errno);
    }
    if (r == 0) break;
    bytes.insert(bytes.end(), buf, buf + r);
  }
  return bytes;
}

void write_file_atomic(const std::string& path,
                       const std::function<void(const ByteSink& sink)>& write) {
  static std::atomic<uint64_t> counter{0};
  const std::string tmp =
      path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
  Fd f;
  f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (f.fd < 0) fail("cannot create", tmp, errno);
  try {
    write([&](const void* data, size_t n) { write_all(f.fd, data, n, tmp); });
    if (::fsync(f.fd) != 0) fail("cannot fsync", tmp, errno);
    int fd = f.fd;
    f.fd = -1;
    if (::close(fd) != 0) fail("cannot close", tmp, errno);
    if (::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename to", path, errno);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  Fd dir;
  dir.fd = ::open(dir_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir.fd >= 0) ::fsync(dir.fd);
}

void write_file_atomic(const std::string& path, const void* data, size_t n) {
  write_file_atomic(path, [&](const ByteSink& sink) { sink(data, n); });
}

}  // namespace brasa::serialize
