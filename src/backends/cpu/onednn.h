#pragma once
// What every oneDNN user in brasa shares: the CPU engine, a stream per thread, and a bounded LRU
// cache of created primitives (creating one is slow; looking one up is a hash of its geometry).

#include <dnnl.hpp>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace brasa::cpu {

inline dnnl::engine& onednn_engine() {
  static dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  return eng;
}

inline dnnl::stream& onednn_stream() {
  thread_local dnnl::stream s __attribute__((tls_model("initial-exec"))) (onednn_engine());
  return s;
}

/// Primitives (or anything cheap to copy) by key, the least recently used dropped past Capacity.
template <typename Value, size_t Capacity = 256>
class PrimitiveCache {
 public:
  template <typename Make>
  Value get(const std::string& key, const Make& make) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    if (it != map_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second.second);
      return it->second.first;
    }
    Value v = make();
    if (map_.size() >= Capacity) {
      map_.erase(lru_.back());
      lru_.pop_back();
    }
    lru_.push_front(key);
    map_.emplace(key, std::make_pair(v, lru_.begin()));
    return v;
  }

 private:
  std::mutex mu_;
  std::list<std::string> lru_;
  std::unordered_map<std::string, std::pair<Value, std::list<std::string>::iterator>> map_;
};

}  // namespace brasa::cpu
