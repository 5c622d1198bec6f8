#include "distributed/store/tcp_watcher.h"

#include <sys/socket.h>

#include "brasa/distributed/error.h"
#include "distributed/store/tcp_wire.h"

namespace brasa::distributed::detail {

TcpWatcher::TcpWatcher(const std::string& host, uint16_t port, std::chrono::milliseconds timeout,
                       std::function<void(const std::string&)> on_broken)
    : where_(host + ":" + std::to_string(port)),
      socket_(connect_with_retry(host, port, timeout)),
      on_broken_(std::move(on_broken)) {
  reader_ = std::thread([this] { read_loop(); });
}

TcpWatcher::~TcpWatcher() {
  closing_.store(true);
  ::shutdown(socket_.fd(), SHUT_RDWR);
  reader_.join();
}

void TcpWatcher::watch(const std::string& key, WatchKeyCallback callback,
                       std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto fail = [&](const std::string& cause) {
    throw DistributedError("TCPStore: watchKey(\"" + key + "\") failed on " + where_ + " (" +
                           cause + ")");
  };
  if (!broken_.empty()) fail(broken_);
  callbacks_[key] = std::move(callback);
  const uint64_t ticket = ++sent_;
  // Writes happen under mutex_ only; the reader never writes.
  IoStatus st = write_frame(socket_.fd(), {std::string(1, wire::kWatch), key});
  if (!st.ok()) fail("lost the connection to the server: " + st.describe());
  auto done = [&] { return acked_ >= ticket || !broken_.empty(); };
  if (timeout.count() <= 0) {
    acked_cv_.wait(lock, done);
  } else if (!acked_cv_.wait_for(lock, timeout, done)) {
    throw DistributedTimeoutError("TCPStore: watchKey(\"" + key + "\") on " + where_ +
                                  ": no answer within " + std::to_string(timeout.count()) + " ms");
  }
  if (acked_ < ticket) fail(broken_);
}

void TcpWatcher::read_loop() {
  Frame frame;
  std::string cause;
  while (true) {
    IoStatus st = read_frame(socket_.fd(), frame, std::nullopt);
    if (!st.ok()) {
      cause = "lost the connection to the server: " + st.describe();
      break;
    }
    if (frame.size() == 6 && frame[0].size() == 1 && frame[0][0] == wire::kUpdate) {
      WatchKeyCallback callback;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = callbacks_.find(frame[1]);
        if (it != callbacks_.end()) callback = it->second;
      }
      if (!callback) continue;
      std::optional<std::string> old, now;
      if (frame[2] == "1") old = std::move(frame[3]);
      if (frame[4] == "1") now = std::move(frame[5]);
      try {
        callback(std::move(old), std::move(now));
      } catch (...) {  // a throwing callback must not end the watch of the other keys
      }
      continue;
    }
    if (frame.size() == 1 && frame[0].size() == 1 && frame[0][0] == wire::kOk) {
      std::lock_guard<std::mutex> lock(mutex_);
      ++acked_;
      acked_cv_.notify_all();
      continue;
    }
    cause = "the server answered: " + (frame.size() > 1 ? frame[1] : std::string("?"));
    break;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    broken_ = cause;
    acked_cv_.notify_all();
  }
  if (on_broken_ && !closing_.load()) {
    try {
      on_broken_(cause);
    } catch (...) {  // NOLINT(bugprone-empty-catch): nothing on this thread to report it to
    }
  }
}

}  // namespace brasa::distributed::detail
