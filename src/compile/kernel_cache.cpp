#include "compile/kernel_cache.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <unordered_map>

#include "brasa/core/warning.h"
#include "compile/log.h"
#include "compile/stats.h"

namespace brasa::compiler {

// Note [Kernel cache]
// A shared object is named by a 128-bit hash of the generated source, the compiler flags, the
// compiler's `--version` text and the CPU's flags (-march=native code must not run elsewhere).
// Builds go to a private temporary name, are fsynced and renamed into place, so processes
// compiling the same graph at once each produce a complete file and the last rename wins; a
// reader sees a whole file or none. Each file exports brasa_source_hash(), checked after dlopen:
// a file that fails to load or holds other code is reported once, removed and rebuilt. Loaded
// objects stay loaded for the life of the process (kernels may still be referenced by plans).

namespace {

constexpr const char* kFlags =
    "-std=c++17 -O2 --param vect-epilogues-nomask=0 -march=native -fPIC -shared -fopenmp "
    "-fno-math-errno -fno-trapping-math -ffp-contract=off -fvisibility=hidden -w";  // Note [Compile
                                                                                    // time]

// Vector math (Note [Generated math] in codegen.cpp): SLEEF, as eager's kernels use it.
constexpr const char* kLibs = "-lsleef -lm";

std::string hex(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string hash128(const std::string& s) {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : s) {
    a = (a ^ c) * 0x100000001b3ull;
    b = (b ^ c) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
  }
  return hex(a) + hex(b);
}

std::string run_capture(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) {
    *status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  *status = pclose(p);
  return out;
}

std::string compiler_name() {
  const char* cxx = std::getenv("BRASA_CXX");
  return cxx && *cxx ? cxx : "g++";
}

std::string cpu_flags() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("flags", 0) == 0) return line;
  return "unknown-cpu";
}

struct Compiler {
  bool ok = false;
  std::string version;  // `--version` output
};

std::mutex g_mutex;
std::unordered_map<std::string, Compiler> g_compilers;  // by compiler name + PATH
std::unordered_map<std::string, void*> g_loaded;        // by key
std::unordered_map<std::string, bool> g_warned;

void warn_once(const std::string& what, const std::string& message) {
  if (g_warned[what] && !get_warn_always()) return;  // Note [Warn always]
  g_warned[what] = true;
  warn(message);
}

/// The compiler's full path found on PATH (or `cxx` itself when it names a path); "" if none.
std::string resolve(const std::string& cxx) {
  if (cxx.find('/') != std::string::npos) return ::access(cxx.c_str(), X_OK) == 0 ? cxx : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (size_t begin = 0; begin <= dirs.size();) {
    size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = (end > begin ? dirs.substr(begin, end - begin) : ".") + "/" + cxx;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    begin = end + 1;
  }
  return "";
}

bool write_file(const std::string& path, const std::string& data);
std::string unique_suffix();

// The `--version` text is part of every key. Running the compiler for it costs a process start
// (milliseconds), so it is kept in the cache directory under the compiler's path, size and mtime.
const Compiler& probe(const std::string& cxx, const std::string& dir) {
  const std::string full = resolve(cxx);
  struct stat st {};
  if (full.empty() || ::stat(full.c_str(), &st) != 0) {
    static const Compiler missing;
    return missing;
  }
  const std::string id = full + "|" + std::to_string(st.st_size) + "|" +
                         std::to_string(st.st_mtim.tv_sec) + "." +
                         std::to_string(st.st_mtim.tv_nsec) + "|" + std::to_string(st.st_ino);
  auto it = g_compilers.find(id);
  if (it != g_compilers.end()) return it->second;
  Compiler c;
  const std::string saved = dir + "/compiler-" + hash128(id) + ".txt";
  std::ifstream in(saved);
  std::stringstream text;
  text << in.rdbuf();
  if (in && !text.str().empty()) {
    c.version = text.str();
    c.ok = true;
  } else {
    int status = 0;
    c.version = run_capture("'" + full + "' --version 2>/dev/null", &status);
    c.ok = status == 0 && !c.version.empty();
    const std::string tmp = saved + unique_suffix();
    if (c.ok && write_file(tmp, c.version)) ::rename(tmp.c_str(), saved.c_str());
    ::unlink(tmp.c_str());
  }
  return g_compilers.emplace(id, c).first->second;
}

bool write_file(const std::string& path, const std::string& data) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = ::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size());
  ok = ::fsync(fd) == 0 && ok;
  return ::close(fd) == 0 && ok;
}

bool fsync_path(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

std::string unique_suffix() {
  static std::mt19937_64 rng(std::random_device{}());
  return "." + std::to_string(::getpid()) + "." + hex(rng()) + ".tmp";
}

void make_dirs(const std::string& dir) {
  for (size_t p = 1; p <= dir.size(); ++p)
    if (p == dir.size() || dir[p] == '/') ::mkdir(dir.substr(0, p).c_str(), 0755);
}

/// dlopen + check of the embedded hash; null (with `error` set) when the file is unusable.
void* open_checked(const std::string& so, const std::string& source_hash, std::string* error) {
  void* h = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = ::dlerror();
    *error = e ? e : "dlopen failed";
    return nullptr;
  }
  auto fn = reinterpret_cast<const char* (*)()>(::dlsym(h, "brasa_source_hash"));
  if (fn == nullptr || source_hash != fn()) {
    *error = "it holds other code than its name says";
    ::dlclose(h);
    return nullptr;
  }
  return h;
}

}  // namespace

std::string cache_dir() {
  std::string dir;
  if (const char* d = std::getenv("BRASA_COMPILE_CACHE"); d && *d) {
    dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = std::string(x) + "/brasa/compile";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = std::string(h) + "/.cache/brasa/compile";
  } else {
    dir = "/tmp/brasa-compile-" + std::to_string(::getuid());
  }
  make_dirs(dir);
  return dir;
}

void* load_kernels(const std::string& body, std::string* source_path) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const std::string cxx = compiler_name();
  const std::string dir = cache_dir();
  const Compiler& c = probe(cxx, dir);
  if (!c.ok) {
    bump(&CompileStats::compiler_failures);
    warn_once("missing " + cxx, "compile: the C++ compiler '" + cxx +
                                    "' was not found or does not run (set BRASA_CXX or PATH); "
                                    "compiled functions run their graphs op by op instead");
    return nullptr;
  }
  const std::string source_hash = hash128(body);
  const std::string source = body +
                             "extern \"C\" __attribute__((visibility(\"default\"))) const "
                             "char* brasa_source_hash() { return \"" +
                             source_hash + "\"; }\n";
  const std::string key =
      hash128(source + "\n" + kFlags + kLibs + "\n" + c.version + "\n" + cpu_flags());
  auto it = g_loaded.find(key);
  const std::string base = dir + "/" + key;
  if (source_path) *source_path = base + ".cpp";
  if (it != g_loaded.end()) {
    bump(&CompileStats::memory_cache_hits);
    log("cache", "memory hit " + base + ".so");
    return it->second;
  }
  std::string error;
  if (::access((base + ".so").c_str(), F_OK) == 0) {
    if (void* h = open_checked(base + ".so", source_hash, &error)) {
      bump(&CompileStats::disk_cache_hits);
      log("cache", "disk hit " + base + ".so");
      return g_loaded[key] = h;
    }
    warn("compile: the cache entry " + base + ".so is corrupt (" + error + "); rebuilding it");
    ::unlink((base + ".so").c_str());
  }
  const std::string tmp_src = base + ".cpp" + unique_suffix();
  const std::string tmp_so = base + ".so" + unique_suffix();
  if (!write_file(tmp_src, source) || ::rename(tmp_src.c_str(), (base + ".cpp").c_str()) != 0) {
    warn_once("write " + dir, "compile: cannot write to the cache directory " + dir + " (" +
                                  std::strerror(errno) + "); set BRASA_COMPILE_CACHE");
    ::unlink(tmp_src.c_str());
    return nullptr;
  }
  log("codegen", "source " + base + ".cpp");
  const std::string cmd =
      "'" + cxx + "' " + kFlags + " -o '" + tmp_so + "' '" + base + ".cpp' " + kLibs + " 2>&1";
  int status = 0;
  bump(&CompileStats::compiler_runs);
  const std::string output = run_capture(cmd, &status);
  if (status != 0 || !fsync_path(tmp_so) || ::rename(tmp_so.c_str(), (base + ".so").c_str()) != 0) {
    ::unlink(tmp_so.c_str());
    bump(&CompileStats::compiler_failures);
    warn_once("build " + key, "compile: building " + base + ".cpp failed (" + cmd + "):\n" +
                                  output + "the graph runs op by op instead");
    return nullptr;
  }
  fsync_path(dir);
  log("cache", "built " + base + ".so");
  void* h = open_checked(base + ".so", source_hash, &error);
  if (h == nullptr) {
    warn_once("load " + key, "compile: cannot load " + base + ".so (" + error +
                                 "); if the cache directory is mounted noexec, set "
                                 "BRASA_COMPILE_CACHE; the graph runs op by op instead");
    return nullptr;
  }
  return g_loaded[key] = h;
}

}  // namespace brasa::compiler
