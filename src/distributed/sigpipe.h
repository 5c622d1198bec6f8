#pragma once
// Note [SIGPIPE]
// A write to a socket whose peer has gone raises SIGPIPE in the writing thread, and its default
// action kills the process: a survivor of a killed rank would die with no error. Gloo writes with
// writev(), which cannot say MSG_NOSIGNAL (brasa's own sockets send with MSG_NOSIGNAL). So brasa
// blocks SIGPIPE in the threads that run Gloo calls, for the duration of each call: a failed write
// then returns EPIPE, Gloo throws, and the error is translated into a DistributedError naming the
// op and the lost rank. Gloo's device threads are started inside such a call, so they inherit the
// blocked mask for their whole life. The process's disposition of SIGPIPE is never changed, and a
// SIGPIPE raised by brasa's own call is consumed before the thread's mask is restored.

#include <csignal>

namespace brasa::distributed {

/// Blocks SIGPIPE in this thread for the guard's lifetime (Note [SIGPIPE]).
class SigpipeGuard {
 public:
  SigpipeGuard();
  ~SigpipeGuard();
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;

 private:
  sigset_t saved_;
  bool was_blocked_ = false;
};

}  // namespace brasa::distributed
