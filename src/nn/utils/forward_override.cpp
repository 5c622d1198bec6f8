// The registry of nn::utils::call's forward overrides, keyed by module address and checked
// against a weak reference, so a module allocated where a destroyed one lived does not inherit
// its override. A module's destructor removes its entry (Note [Overrides go with their module]).

#include "brasa/nn/utils/forward_override.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "brasa/core/error.h"
#include "nn/utils/forward_override_registry.h"

namespace brasa::nn::utils {
namespace {

struct Entry {
  std::weak_ptr<const Module> owner;
  ForwardOverride forward;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<const Module*, Entry> entries;
  std::atomic<size_t> size{0};
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: overrides may go during static exit
  return *r;
}

void prune(Registry& r) {
  for (auto it = r.entries.begin(); it != r.entries.end();) {
    it = it->second.owner.expired() ? r.entries.erase(it) : std::next(it);
  }
}

}  // namespace

void set_forward_override(const Module& module, ForwardOverride forward) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  prune(r);
  if (!forward) {
    r.entries.erase(&module);
  } else {
    std::weak_ptr<const Module> owner = module.weak_from_this();
    BRASA_CHECK(!owner.expired(), "set_forward_override: module '", module.name(),
                "' is not owned by a shared_ptr (make it through a ModuleHolder or "
                "std::make_shared)");
    r.entries[&module] = Entry{std::move(owner), std::move(forward)};
  }
  r.size.store(r.entries.size());
}

ForwardOverride forward_override(const Module& module) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.entries.find(&module);
  if (it == r.entries.end()) return {};
  auto owner = it->second.owner.lock();
  if (owner.get() != &module) {
    r.entries.erase(it);
    r.size.store(r.entries.size());
    return {};
  }
  return it->second.forward;
}

bool any_forward_override() { return registry().size.load(std::memory_order_relaxed) != 0; }

namespace detail {

void forget_forward_override(const Module* module) noexcept {
  Registry& r = registry();
  if (r.size.load(std::memory_order_relaxed) == 0) return;
  Entry gone;  // destroyed after the lock: what the override captured may run destructors that
               // set or read overrides of their own
  {
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.entries.find(module);
    if (it == r.entries.end()) return;
    gone = std::move(it->second);
    r.entries.erase(it);
    r.size.store(r.entries.size());
  }
}

}  // namespace detail

}  // namespace brasa::nn::utils
