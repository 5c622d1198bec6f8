// The inter-op pool (interop.h): a fixed set of threads draining one task queue; it starts with
// the first launch() and drains and joins at exit.

#include "brasa/core/interop.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "brasa/core/error.h"
#include "brasa/core/warning.h"

namespace brasa {
namespace {

class InteropPool {
 public:
  void set_size(int n) {
    BRASA_CHECK(n > 0, "set_num_interop_threads: expected a positive number of threads, got ", n);
    std::lock_guard<std::mutex> lock(mutex_);
    BRASA_CHECK_TYPED(RuntimeError, threads_.empty() && size_ == 0,
                      "set_num_interop_threads: the number of inter-op threads can be set once, "
                      "before the first launch (it is ",
                      effective_size(), ")");
    size_ = n;
  }
  int size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return effective_size();
  }
  void push(std::function<void()> fn) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (threads_.empty()) {
        const int n = effective_size();
        for (int i = 0; i < n; ++i) threads_.emplace_back([this] { run(); });
      }
      tasks_.push_back(std::move(fn));
    }
    ready_.notify_one();
  }
  ~InteropPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  /// The number set, else the number of cores; called with mutex_ held.
  int effective_size() const {
    return size_ != 0 ? size_ : std::max(1, int(std::thread::hardware_concurrency()));
  }
  void run() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
        if (tasks_.empty()) return;  // stopping, and every task has run
        fn = std::move(tasks_.front());
        tasks_.pop_front();
      }
      try {
        fn();
      } catch (const std::exception& e) {
        warn(std::string("launch: a task on the inter-op pool threw: ") + e.what());
      } catch (...) {
        warn("launch: a task on the inter-op pool threw a non-standard exception");
      }
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> threads_;
  int size_ = 0;  // 0: the number of cores
  bool stopping_ = false;
};

InteropPool& pool() {
  static InteropPool p;
  return p;
}

}  // namespace

void set_num_interop_threads(int n) { pool().set_size(n); }
int get_num_interop_threads() { return pool().size(); }
void launch(std::function<void()> fn) {
  BRASA_CHECK(fn != nullptr, "launch: expected a function, got an empty std::function");
  pool().push(std::move(fn));
}

}  // namespace brasa
