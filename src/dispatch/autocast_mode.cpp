#include "brasa/dispatch/autocast_mode.h"

#include <unordered_map>
#include <utility>

#include "brasa/core/error.h"

namespace brasa::autocast {
namespace {

// Note [Initial-exec TLS] in grad_mode.cpp: every thread_local of libbrasa uses initial-exec. The
// cache is a pointer (created on first use) so that no non-trivial object needs TLS construction.
thread_local ScalarType t_dtype __attribute__((tls_model("initial-exec"))) = kBFloat16;
thread_local bool t_cache_enabled __attribute__((tls_model("initial-exec"))) = true;
thread_local int t_nesting __attribute__((tls_model("initial-exec"))) = 0;

// The source tensor is kept with its cast, so its address cannot be reused by another tensor while
// the entry lives.
using Cache = std::unordered_map<const TensorImpl*, std::pair<Tensor, Tensor>>;
thread_local Cache* t_cache __attribute__((tls_model("initial-exec"))) = nullptr;

Cache& cache() {
  if (!t_cache) {
    thread_local Cache storage __attribute__((tls_model("initial-exec")));
    t_cache = &storage;
  }
  return *t_cache;
}

void check_dtype(ScalarType dtype) {
  BRASA_CHECK(dtype == kBFloat16,
              "autocast: CPU autocast supports only BFloat16 as its lower-precision dtype, got ",
              dtype);
}

bool eligible(const Tensor& t) {
  return t.defined() && t.is_floating_point() && t.scalar_type() != kDouble;
}

}  // namespace

bool is_cpu_enabled() { return tls_dispatch_keys.included.has(DispatchKey::Autocast); }

void set_cpu_enabled(bool enabled) {
  DispatchKeySet in = tls_dispatch_keys.included;
  tls_dispatch_keys.included =
      enabled ? in.add(DispatchKey::Autocast) : in.remove(DispatchKey::Autocast);
}

ScalarType get_autocast_cpu_dtype() { return t_dtype; }

void set_autocast_cpu_dtype(ScalarType dtype) {
  check_dtype(dtype);
  t_dtype = dtype;
}

bool is_autocast_cache_enabled() { return t_cache_enabled; }
void set_autocast_cache_enabled(bool enabled) { t_cache_enabled = enabled; }

void clear_cache() {
  if (t_cache) t_cache->clear();
}

size_t cache_size() { return t_cache ? t_cache->size() : 0; }

int increment_nesting() { return ++t_nesting; }
int decrement_nesting() { return --t_nesting; }

Tensor cached_cast(ScalarType dtype, const Tensor& t) {
  if (!eligible(t) || t.scalar_type() == dtype) return t;
  const bool cacheable = t_cache_enabled && dtype == t_dtype && t.scalar_type() == kFloat &&
                         t.requires_grad() && t.is_leaf() && !t.is_view();
  if (!cacheable) return t.to(dtype);
  Cache& c = cache();
  auto it = c.find(t.unsafeGetTensorImpl());
  if (it != c.end()) return it->second.second;
  Tensor cast = t.to(dtype);
  c.emplace(t.unsafeGetTensorImpl(), std::make_pair(t, cast));
  return cast;
}

ScalarType promote_dtype(const std::vector<const Tensor*>& tensors) {
  for (const Tensor* t : tensors)
    if (eligible(*t) && t->scalar_type() != t_dtype) return kFloat;
  return t_dtype;
}

ScalarType policy_dtype(CastPolicy policy, const std::vector<const Tensor*>& tensors) {
  switch (policy) {
    case CastPolicy::LowerPrecision: return t_dtype;
    case CastPolicy::Float32: return kFloat;
    case CastPolicy::Promote: return promote_dtype(tensors);
  }
  return kFloat;
}

}  // namespace brasa::autocast

namespace brasa {

AutocastGuard::AutocastGuard(ScalarType dtype, bool enabled, bool cache_enabled)
    : prev_enabled_(autocast::is_cpu_enabled()),
      prev_dtype_(autocast::get_autocast_cpu_dtype()),
      prev_cache_enabled_(autocast::is_autocast_cache_enabled()) {
  if (enabled) autocast::set_autocast_cpu_dtype(dtype);
  autocast::set_cpu_enabled(enabled);
  autocast::set_autocast_cache_enabled(cache_enabled);
  autocast::increment_nesting();
}

AutocastGuard::~AutocastGuard() {
  if (autocast::decrement_nesting() == 0) autocast::clear_cache();
  autocast::set_cpu_enabled(prev_enabled_);
  autocast::set_autocast_cpu_dtype(prev_dtype_);
  autocast::set_autocast_cache_enabled(prev_cache_enabled_);
}

}  // namespace brasa
