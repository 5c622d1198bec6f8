#include "brasa/core/warning.h"

#include <iostream>
#include <mutex>
#include <utility>

namespace brasa {
namespace {
std::mutex g_mutex;
WarningHandler g_handler;
}  // namespace

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
