#include "brasa/core/warning.h"

#include <iostream>
#include <mutex>
#include <utility>

namespace brasa {
namespace {
std::mutex g_mutex;
WarningHandler g_handler;
std::atomic<bool> g_warn_always{false};
}  // namespace

void set_warn_always(bool setting) noexcept {
  g_warn_always.store(setting, std::memory_order_relaxed);
}
bool get_warn_always() noexcept { return g_warn_always.load(std::memory_order_relaxed); }
bool warning_due(std::atomic<bool>& warned) noexcept {
  return !warned.exchange(true, std::memory_order_relaxed) || get_warn_always();
}

void warn(const std::string& message) {
  WarningHandler h;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    h = g_handler;
  }
  if (h)
    h(message);
  else
    std::cerr << "[brasa warning] " << message << std::endl;
}

WarningHandler set_warning_handler(WarningHandler handler) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return std::exchange(g_handler, std::move(handler));
}

}  // namespace brasa
