#pragma once
// Readers from PyPI for tests that check brasa's files with another implementation (the
// `tensorboard` package for event files): a virtual environment in the build tree, next to the
// oracle cache, made with /usr/bin/python3 on first use and kept between runs. Without network
// access pip fails, and the caller skips its test with the reason.

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

namespace brasa::testing_pypi {

/// Runs a shell command; returns its exit status and its output (stdout and stderr).
inline std::pair<int, std::string> run_command(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  std::string text;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) text.append(buf, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

/// The python of the environment `name` in which `import_check` (e.g. "import tensorboard")
/// succeeds, installing `packages` with pip if it does not yet; nullopt and `why` when it cannot.
/// Several test processes may ask at once: a file lock makes them wait for the first.
inline std::optional<std::string> venv_python(const std::string& name, const std::string& packages,
                                              const std::string& import_check, std::string* why) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(BRASA_ORACLE_CACHE_DIR).parent_path() / ("pypi_venv_" + name);
  const std::string python = (dir / "bin" / "python").string();
  const std::string check = python + " -c '" + import_check + "'";
  const int lock = open((dir.string() + ".lock").c_str(), O_CREAT | O_RDWR, 0644);
  if (lock >= 0) flock(lock, LOCK_EX);
  struct Unlock {
    int fd;
    ~Unlock() {
      if (fd >= 0) close(fd);  // releases the lock
    }
  } unlock{lock};
  if (fs::exists(python) && run_command(check).first == 0) return python;
  auto [rc, out] = run_command("/usr/bin/python3 -m venv " + dir.string());
  if (rc == 0)
    std::tie(rc, out) = run_command(python +
                                    " -m pip install --disable-pip-version-check -q --timeout 20 "
                                    "--retries 1 " +
                                    packages);
  if (rc == 0 && run_command(check).first == 0) return python;
  *why = "cannot install " + packages + " from PyPI into " + dir.string() + ": " +
         (out.size() > 600 ? out.substr(out.size() - 600) : out);
  return std::nullopt;
}

}  // namespace brasa::testing_pypi
