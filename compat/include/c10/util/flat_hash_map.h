#pragma once
// ska::flat_hash_map / ska::flat_hash_set, the hash tables libtorch's headers name (for example
// Optimizer::state()'s type). Note [ska hash maps]: brasa's containers are std::unordered_map and
// std::unordered_set, so these names are aliases of them: a function that takes libtorch's
// `const ska::flat_hash_map<K, V>&` accepts what brasa returns. Iteration order is unspecified in
// both, as it is in libtorch.

#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace ska {
template <typename K, typename V, typename H = std::hash<K>, typename E = std::equal_to<K>,
          typename A = std::allocator<std::pair<const K, V>>>
using flat_hash_map = std::unordered_map<K, V, H, E, A>;

template <typename T, typename H = std::hash<T>, typename E = std::equal_to<T>,
          typename A = std::allocator<T>>
using flat_hash_set = std::unordered_set<T, H, E, A>;
}  // namespace ska
