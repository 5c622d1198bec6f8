#pragma once
// IntrusivePtr<T>: a shared pointer whose count lives in the object (T derives from RefCounted).
// One pointer wide, so Tensor is one pointer wide and copies cost one atomic increment.

#include <atomic>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace brasa {

class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;
  virtual ~RefCounted() = default;
  uint32_t use_count() const { return refcount_.load(std::memory_order_relaxed); }

 private:
  template <typename T>
  friend class IntrusivePtr;
  mutable std::atomic<uint32_t> refcount_{0};
};

template <typename T>
class IntrusivePtr {
 public:
  IntrusivePtr() = default;
  IntrusivePtr(std::nullptr_t) {}  // NOLINT
  explicit IntrusivePtr(T* p) : p_(p) { retain(); }
  IntrusivePtr(const IntrusivePtr& o) : p_(o.p_) { retain(); }
  IntrusivePtr(IntrusivePtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  IntrusivePtr(IntrusivePtr<U> o) : p_(o.release()) {}  // NOLINT
  ~IntrusivePtr() { reset(); }
  IntrusivePtr& operator=(const IntrusivePtr& o) {
    IntrusivePtr(o).swap(*this);
    return *this;
  }
  IntrusivePtr& operator=(IntrusivePtr&& o) noexcept {
    IntrusivePtr(std::move(o)).swap(*this);
    return *this;
  }
  void swap(IntrusivePtr& o) noexcept { std::swap(p_, o.p_); }
  void reset() {
    if (p_ && p_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete p_;
    p_ = nullptr;
  }
  /// Gives up ownership without decrementing.
  T* release() {
    T* p = p_;
    p_ = nullptr;
    return p;
  }
  static IntrusivePtr adopt(T* p) {  // takes over one reference already counted
    IntrusivePtr r;
    r.p_ = p;
    return r;
  }
  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool operator==(const IntrusivePtr& o) const { return p_ == o.p_; }
  uint32_t use_count() const { return p_ ? p_->use_count() : 0; }
  /// A std::shared_ptr sharing the object: it holds one reference until its last copy is gone.
  /// Code written for libtorch before c10::intrusive_ptr (e.g. `std::shared_ptr<ProcessGroupMPI>
  /// pg = ProcessGroupMPI::createProcessGroupMPI()`) keeps compiling.
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<T*, U*>>>
  operator std::shared_ptr<U>() const {  // NOLINT(google-explicit-constructor)
    if (!p_) return nullptr;
    return std::shared_ptr<U>(p_, [keep = *this](U*) {});
  }

 private:
  void retain() {
    if (p_) p_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  T* p_ = nullptr;
};

template <typename T, typename... Args>
IntrusivePtr<T> make_intrusive(Args&&... args) {
  return IntrusivePtr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace brasa
