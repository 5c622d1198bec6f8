// load_backend (dlopen + the library's registrations), BRASA_BACKENDS at start-up, and how
// registration errors of static initialisers reach the caller (Note [Registration errors]).
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <set>

#include "backends/extension/startup.h"
#include "brasa/backend/backend.h"
#include "brasa/backend/library.h"
#include "brasa/core/error.h"

namespace brasa::backend {
namespace {
// Note [Registration errors]: a library registers its kernels from static initialisers, where an
// exception cannot escape (it would terminate the process). So run_registration catches: inside
// load_backend the errors are collected and load_backend throws them, naming the library; at a
// program's own start-up they go to stderr and registration_errors().
// Note [Initial-exec TLS] (in src/dispatch/grad_mode.cpp)
thread_local std::vector<std::string>* t_collecting __attribute__((tls_model("initial-exec"))) =
    nullptr;
std::mutex g_errors_mutex;
std::vector<std::string> g_errors;

std::recursive_mutex g_load_mutex;
std::set<std::string> g_loaded;
std::atomic<bool> g_startup_done{false};
bool g_startup_loaded_any = false;
}  // namespace

bool detail::run_registration(void (*fn)(), const char* file, int line) {
  try {
    fn();
  } catch (const std::exception& e) {
    std::string msg = std::string(file) + ":" + std::to_string(line) + ": " + e.what();
    if (t_collecting) {
      t_collecting->push_back(msg);
    } else {
      std::cerr << "[brasa] backend registration failed: " << msg << std::endl;
      std::lock_guard<std::mutex> lock(g_errors_mutex);
      g_errors.push_back(msg);
    }
  }
  return true;
}

std::vector<std::string> registration_errors() {
  std::lock_guard<std::mutex> lock(g_errors_mutex);
  return g_errors;
}

void load_backend(const std::string& path) {
  BRASA_CHECK(!path.empty(), "load_backend: got an empty path");
  std::lock_guard<std::recursive_mutex> lock(g_load_mutex);
  char* real = ::realpath(path.c_str(), nullptr);
  std::string key = real ? real : path;
  std::free(real);
  if (g_loaded.count(key)) return;
  std::vector<std::string> errors;
  std::vector<std::string>* saved = std::exchange(t_collecting, &errors);
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  t_collecting = saved;
  if (!handle) {
    const char* why = ::dlerror();
    BRASA_THROW(ValueError, "load_backend: cannot load '", path,
                "': ", why ? why : "unknown error");
  }
  // The library stays loaded even when a registration failed: kernels it did register point
  // into it.
  g_loaded.insert(key);
  if (!errors.empty()) {
    std::string all;
    for (const std::string& e : errors) all += "\n  " + e;
    BRASA_THROW(ValueError, "load_backend: '", path, "' was loaded but ", errors.size(),
                " of its registrations failed:", all);
  }
}

void load_startup_backends() { brasa::detail::load_startup_backends(); }

}  // namespace brasa::backend

namespace brasa::detail {
bool load_startup_backends() {
  using namespace brasa::backend;
  if (g_startup_done.load(std::memory_order_acquire)) return g_startup_loaded_any;
  thread_local bool active __attribute__((tls_model("initial-exec"))) = false;
  if (active) return false;  // a library being loaded asked again
  std::lock_guard<std::recursive_mutex> lock(g_load_mutex);
  if (g_startup_done.load()) return g_startup_loaded_any;
  active = true;
  try {
    const char* env = std::getenv("BRASA_BACKENDS");
    std::string list = env ? env : "";
    size_t start = 0;
    while (start <= list.size()) {
      size_t colon = list.find(':', start);
      std::string path = list.substr(start, colon == std::string::npos ? colon : colon - start);
      if (!path.empty()) {
        try {
          load_backend(path);
        } catch (const Error& e) {
          BRASA_THROW(ValueError, "BRASA_BACKENDS: ", e.what());
        }
        g_startup_loaded_any = true;
      }
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  } catch (...) {
    active = false;
    throw;  // not marked done: the next lookup reports the same error
  }
  active = false;
  g_startup_done.store(true, std::memory_order_release);
  return g_startup_loaded_any;
}
}  // namespace brasa::detail
