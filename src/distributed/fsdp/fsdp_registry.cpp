#include "distributed/fsdp/fsdp_registry.h"

#include <algorithm>
#include <mutex>

namespace brasa::distributed::detail {
namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::weak_ptr<FSDPState>> units;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_unit(const std::shared_ptr<FSDPState>& unit) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.units.erase(std::remove_if(r.units.begin(), r.units.end(),
                               [](const std::weak_ptr<FSDPState>& w) { return w.expired(); }),
                r.units.end());
  r.units.push_back(unit);
}

std::vector<std::shared_ptr<FSDPState>> live_units() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::shared_ptr<FSDPState>> out;
  for (const auto& w : r.units) {
    if (auto u = w.lock()) out.push_back(std::move(u));
  }
  return out;
}

std::shared_ptr<FSDPState> unit_of(const Tensor& param) {
  for (auto& u : live_units()) {
    if (u->manages(param)) return u;
  }
  return nullptr;
}

bool contains(const nn::Module& outer, const nn::Module& inner) {
  if (&outer == &inner) return true;
  for (const auto& m : outer.modules(/*include_self=*/false)) {
    if (m.get() == &inner) return true;
  }
  return false;
}

}  // namespace brasa::distributed::detail
