#include "distributed/sigpipe.h"

#include <pthread.h>

#include <ctime>

namespace brasa::distributed {
namespace {
sigset_t sigpipe_set() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGPIPE);
  return s;
}
}  // namespace

SigpipeGuard::SigpipeGuard() {
  const sigset_t s = sigpipe_set();
  pthread_sigmask(SIG_BLOCK, &s, &saved_);
  was_blocked_ = sigismember(&saved_, SIGPIPE) == 1;
}

SigpipeGuard::~SigpipeGuard() {
  if (was_blocked_)
    return;  // an outer guard (or the program) blocks it and keeps whatever is pending
  const sigset_t s = sigpipe_set();
  sigset_t pending;
  if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
    const timespec zero{0, 0};
    while (sigtimedwait(&s, nullptr, &zero) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
}

}  // namespace brasa::distributed
