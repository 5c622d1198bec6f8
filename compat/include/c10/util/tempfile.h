#pragma once
// c10::make_tempfile / c10::make_tempdir: a uniquely named file or folder under $TMPDIR (or /tmp)
// that is removed when the object is destroyed, as libtorch's tests and programs use them.

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace c10 {
namespace detail {
/// "$TMPDIR/<prefix>XXXXXX" (TMPDIR, TMP, TEMP, TEMPDIR, else /tmp): mkstemp's template.
inline std::string temp_template(const std::string& prefix) {
  std::string dir = "/tmp";
  for (const char* var : {"TMPDIR", "TMP", "TEMP", "TEMPDIR"}) {
    if (const char* value = std::getenv(var)) {
      dir = value;
      break;
    }
  }
  return dir + "/" + prefix + "XXXXXX";
}
}  // namespace detail

/// An open temporary file; `name` is its path. Closed and unlinked on destruction.
struct TempFile {
  TempFile(std::string name, int fd) : fd(fd), name(std::move(name)) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  TempFile(TempFile&& other) noexcept
      : fd(std::exchange(other.fd, -1)), name(std::move(other.name)) {}
  TempFile& operator=(TempFile&& other) noexcept {
    std::swap(fd, other.fd);
    std::swap(name, other.name);
    return *this;
  }
  ~TempFile() {
    if (fd >= 0) {
      ::unlink(name.c_str());
      ::close(fd);
    }
  }

  int fd;
  std::string name;
};

/// A temporary folder; `name` is its path. Removed (when empty) on destruction.
struct TempDir {
  explicit TempDir(std::string name) : name(std::move(name)) {}
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  TempDir(TempDir&& other) noexcept : name(std::exchange(other.name, std::string())) {}
  TempDir& operator=(TempDir&& other) noexcept {
    std::swap(name, other.name);
    return *this;
  }
  ~TempDir() {
    if (!name.empty()) ::rmdir(name.c_str());
  }

  std::string name;
};

inline std::optional<TempFile> try_make_tempfile(std::string name_prefix = "torch-file-") {
  std::string path = detail::temp_template(name_prefix);
  const int fd = ::mkstemp(path.data());
  if (fd == -1) return std::nullopt;
  return TempFile(std::move(path), fd);
}

/// Throws std::runtime_error when the file cannot be created.
inline TempFile make_tempfile(std::string name_prefix = "torch-file-") {
  if (auto file = try_make_tempfile(std::move(name_prefix))) return std::move(*file);
  throw std::runtime_error("make_tempfile: could not create a temporary file");
}

inline std::optional<TempDir> try_make_tempdir(std::string name_prefix = "torch-dir-") {
  std::string path = detail::temp_template(name_prefix);
  if (::mkdtemp(path.data()) == nullptr) return std::nullopt;
  return TempDir(std::move(path));
}

/// Throws std::runtime_error when the folder cannot be created.
inline TempDir make_tempdir(std::string name_prefix = "torch-dir-") {
  if (auto dir = try_make_tempdir(std::move(name_prefix))) return std::move(*dir);
  throw std::runtime_error("make_tempdir: could not create a temporary folder");
}
}  // namespace c10
