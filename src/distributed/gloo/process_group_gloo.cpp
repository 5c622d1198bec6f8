// ProcessGroupGloo: devices, rendezvous, the FIFO worker pool, error translation, send/recv.

#include <gloo/common/error.h>
#include <gloo/common/logging.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>
#include <gloo/transport/unbound_buffer.h>

#include <algorithm>
#include <cstdlib>

#include "distributed/gloo/gloo_checks.h"
#include "distributed/gloo/gloo_impl.h"
#include "distributed/gloo/gloo_store.h"
#include "distributed/sigpipe.h"

namespace brasa::distributed {

namespace gloo_backend {

namespace {
bool is_timeout_message(const std::string& m) {
  return m.find("Timed out") != std::string::npos || m.find("imeout") != std::string::npos;
}
}  // namespace

void run_translating(const std::string& label, std::chrono::milliseconds timeout,
                     const std::function<void()>& body,
                     const std::function<std::string()>& diagnose) {
  SigpipeGuard no_sigpipe;  // Note [SIGPIPE]: a lost peer is an error, not a killed process
  try {
    body();
  } catch (const Error&) {
    throw;
  } catch (const ::gloo::IoException& e) {
    std::string m = e.what();
    if (is_timeout_message(m)) {
      BRASA_THROW(distributed::DistributedTimeoutError, label, ": timed out after ",
                  timeout.count(), " ms (a rank did not join the operation or is stalled): ", m);
    }
    const std::string lost = diagnose ? diagnose() : std::string();
    BRASA_THROW(distributed::DistributedError, label,
                ": the connection to a peer failed (a rank exited or the network broke; the "
                "group is unusable, recreate it)",
                lost.empty() ? "" : ": ", lost, ": ", m);
  } catch (const ::gloo::Exception& e) {
    BRASA_THROW(distributed::DistributedError, label, ": Gloo error: ", e.what());
  } catch (const ::gloo::EnforceNotMet& e) {
    BRASA_THROW(distributed::DistributedError, label, ": Gloo check failed: ", e.what());
  } catch (const std::exception& e) {
    BRASA_THROW(distributed::DistributedError, label, ": ", e.what());
  }
}

}  // namespace gloo_backend

using gloo_backend::run_translating;

// ---- devices ----

namespace {
std::shared_ptr<GlooDevice> make_device(const ::gloo::transport::tcp::attr& attr,
                                        const std::string& what) {
  auto device = std::make_shared<GlooDevice>();
  run_translating("ProcessGroupGloo: creating a TCP device for " + what,
                  std::chrono::milliseconds(0),
                  [&] { device->device = ::gloo::transport::tcp::CreateDevice(attr); });
  return device;
}
}  // namespace

std::shared_ptr<GlooDevice> ProcessGroupGloo::createDeviceForHostname(const std::string& hostname) {
  ::gloo::transport::tcp::attr attr;
  attr.hostname = hostname;
  return make_device(attr, "hostname '" + hostname + "'");
}

std::shared_ptr<GlooDevice> ProcessGroupGloo::createDeviceForInterface(
    const std::string& interface) {
  ::gloo::transport::tcp::attr attr;
  attr.iface = interface;
  return make_device(attr, "interface '" + interface + "'");
}

std::shared_ptr<GlooDevice> ProcessGroupGloo::createDefaultDevice() {
  if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname) {
    return createDeviceForInterface(ifname);
  }
  if (const char* addr = std::getenv("MASTER_ADDR"); addr && *addr) {
    return createDeviceForHostname(addr);
  }
  return createDeviceForHostname("127.0.0.1");
}

// ---- construction and the worker pool ----

ProcessGroupGloo::ProcessGroupGloo(const IntrusivePtr<Store>& store, int rank, int size,
                                   IntrusivePtr<Options> options)
    : ProcessGroup(rank, size), options_(std::move(options)), impl_(std::make_shared<Impl>()) {
  BRASA_CHECK(store, "ProcessGroupGloo: the store is null");
  BRASA_CHECK(size >= 1 && rank >= 0 && rank < size, "ProcessGroupGloo: rank ", rank,
              " is out of range for a group of size ", size);
  BRASA_CHECK(options_, "ProcessGroupGloo: the options are null");
  BRASA_CHECK(options_->threads >= 1, "ProcessGroupGloo: options.threads must be >= 1, got ",
              options_->threads);
  BRASA_CHECK(options_->timeout.count() > 0, "ProcessGroupGloo: options.timeout must be > 0, got ",
              options_->timeout.count(), " ms");
  impl_->rank = rank;
  impl_->size = size;
  impl_->owner = this;
  impl_->timeout = options_->timeout;
  impl_->store = store;
  store_ = std::make_unique<GlooStore>(store);
  auto devices = options_->devices;
  if (devices.empty()) devices.push_back(createDefaultDevice());

  gloo_backend::GlooStore gloo_store(store);
  for (size_t i = 0; i < devices.size(); ++i) {
    BRASA_CHECK(devices[i] && devices[i]->device, "ProcessGroupGloo: device ", i, " is null");
    auto context = std::make_shared<::gloo::rendezvous::Context>(rank, size);
    context->setTimeout(options_->timeout);
    ::gloo::rendezvous::PrefixStore prefixed("gloo/" + std::to_string(i), gloo_store);
    const std::string label = "ProcessGroupGloo: rendezvous of rank " + std::to_string(rank) +
                              " of " + std::to_string(size) + " (device " + std::to_string(i) + ")";
    try {
      run_translating(label, options_->timeout,
                      [&] { context->connectFullMesh(prefixed, devices[i]->device); });
    } catch (const DistributedTimeoutError& e) {
      if (std::string(e.what()).rfind(label, 0) == 0) throw;
      BRASA_THROW(distributed::DistributedTimeoutError, label, ": ", e.what());
    }
    impl_->contexts.push_back(std::move(context));
  }
  impl_->worker_exited.assign(static_cast<size_t>(options_->threads), false);
  for (int i = 0; i < options_->threads; ++i) {
    impl_->workers.emplace_back([impl = impl_, i] { impl->worker_loop(static_cast<size_t>(i)); });
  }
}

// Note [Lost peers]: the workers finish the queue; one still blocked in an op the monitor already
// failed is waited for 200 ms (the monitor keeps interrupting its Gloo waits), then detached. It
// holds the Impl (and, in its op, the Gloo context and the tensors), so nothing it uses goes away.
ProcessGroupGloo::~ProcessGroupGloo() {
  constexpr auto kDetachAfter = std::chrono::milliseconds(200);
  std::unique_lock<std::mutex> lock(impl_->mutex);
  impl_->stopping = true;
  impl_->cv.notify_all();
  auto all_exited = [&] {
    return std::all_of(impl_->worker_exited.begin(), impl_->worker_exited.end(),
                       [](bool b) { return b; });
  };
  auto only_abandoned_left = [&] {
    return !impl_->in_flight.empty() &&
           std::all_of(impl_->in_flight.begin(), impl_->in_flight.end(),
                       [](const Impl::InFlight& f) { return f.abandoned; });
  };
  bool counting = false;  // only ops already failed are left, since give_up - kDetachAfter
  auto give_up = Impl::Clock::now();
  while (!all_exited()) {
    if (!only_abandoned_left()) {
      counting = false;
      impl_->finished_cv.wait(lock);
      continue;
    }
    if (!counting) give_up = Impl::Clock::now() + kDetachAfter;
    counting = true;
    if (impl_->finished_cv.wait_until(lock, give_up) == std::cv_status::timeout) break;
  }
  {
    // A worker left behind must not reach this group. (Lock order: mutex, then owner_mutex; a
    // diagnosis holding owner_mutex never takes mutex.)
    std::lock_guard<std::mutex> owner_lock(impl_->owner_mutex);
    impl_->owner = nullptr;
  }
  impl_->monitor_stop = true;
  impl_->monitor_cv.notify_all();
  for (size_t i = 0; i < impl_->workers.size(); ++i) {
    if (impl_->worker_exited[i]) {
      impl_->workers[i].join();
    } else {
      impl_->workers[i].detach();
    }
  }
  std::thread monitor = std::move(impl_->monitor);
  lock.unlock();
  if (monitor.joinable()) monitor.join();
}

IntrusivePtr<Work> ProcessGroupGloo::Impl::enqueue(const std::string& op, const std::string& detail,
                                                   std::chrono::milliseconds op_timeout,
                                                   std::vector<Tensor> outputs,
                                                   gloo_backend::OpBody body) {
  std::lock_guard<std::mutex> lock(mutex);
  const uint32_t tag = next_tag++;
  if (sequence_number) ++*sequence_number;
  std::string label = "ProcessGroupGloo::" + op + " (rank " + std::to_string(rank) + " of " +
                      std::to_string(size) + ", tag " + std::to_string(tag) +
                      (detail.empty() ? "" : ", " + detail) + ")";
  auto work = make_intrusive<Work>(label, std::move(outputs));
  auto abort = std::make_shared<gloo_backend::OpAbort>();
  gloo_backend::OpContext ctx{
      contexts[tag % contexts.size()], tag, resolve(op_timeout), rank, size, abort};
  in_flight.push_back(InFlight{work, label, Clock::now(), abort});
  queue.push_back(Entry{work, std::move(label), std::move(ctx), std::move(body)});
  cv.notify_one();
  if (lost_why) monitor_cv.notify_all();
  return work;
}

std::vector<IntrusivePtr<Work>> ProcessGroupGloo::Impl::pending() {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<IntrusivePtr<Work>> works;
  for (const auto& f : in_flight) works.push_back(f.work);
  return works;
}

std::string ProcessGroupGloo::Impl::diagnose() {
  std::lock_guard<std::mutex> lock(owner_mutex);
  return owner != nullptr ? owner->diagnose_failure() : std::string();
}

void ProcessGroupGloo::Impl::worker_loop(size_t index) {
  for (;;) {
    Entry entry;
    bool abandoned = false;
    {
      std::unique_lock<std::mutex> lock(mutex);
      cv.wait(lock, [this] { return stopping || !queue.empty(); });
      if (queue.empty()) {
        worker_exited[index] = true;
        finished_cv.notify_all();
        return;
      }
      entry = std::move(queue.front());
      queue.pop_front();
      auto it = std::find_if(in_flight.begin(), in_flight.end(),
                             [&](const InFlight& f) { return f.work == entry.work; });
      abandoned = it != in_flight.end() && it->abandoned;
    }
    if (!abandoned) {  // an op failed while queued is not started (Note [Lost peers])
      std::exception_ptr error;
      try {
        run_translating(
            entry.label, entry.ctx.timeout, [&] { entry.body(entry.ctx); },
            [this] { return diagnose(); });
      } catch (...) {
        error = std::current_exception();
      }
      entry.work->finish(error);  // no effect when the monitor failed it first
    }
    std::lock_guard<std::mutex> lock(mutex);
    auto it = std::find_if(in_flight.begin(), in_flight.end(),
                           [&](const InFlight& f) { return f.work == entry.work; });
    if (it != in_flight.end()) in_flight.erase(it);
    finished_cv.notify_all();
  }
}

// ---- point to point ----

namespace {

/// A posted send/recv; wait() waits for the transfer and completes the Work.
class P2PWork : public Work {
 public:
  P2PWork(std::string label, Tensor user, Tensor buffer,
          std::unique_ptr<::gloo::transport::UnboundBuffer> ub, bool is_send,
          std::chrono::milliseconds default_timeout)
      : Work(std::move(label), {user}),
        user_(std::move(user)),
        buffer_(std::move(buffer)),
        ub_(std::move(ub)),
        is_send_(is_send),
        default_timeout_(default_timeout) {}

  bool wait(std::chrono::milliseconds timeout) override {
    {
      std::lock_guard<std::mutex> lock(wait_mutex_);
      if (!isCompleted()) {
        const auto t = timeout == kNoTimeout ? default_timeout_ : timeout;
        std::exception_ptr error;
        try {
          run_translating(op_name_, t, [&] {
            aborted_ = !(is_send_ ? ub_->waitSend(t) : ub_->waitRecv(t));
            if (!aborted_ && !is_send_ && !user_.is_same(buffer_)) user_.copy_(buffer_);
          });
        } catch (...) {
          error = std::current_exception();
        }
        finish(error);
      }
    }
    Work::wait(kNoTimeout);
    return !aborted_;  // libtorch: false when the transfer was aborted
  }

  // Wakes a wait() in progress, or makes the next one return at once; the transfer itself stays
  // posted in Gloo (as in libtorch).
  void abort() override {
    if (is_send_) {
      ub_->abortWaitSend();
    } else {
      ub_->abortWaitRecv();
    }
  }

 private:
  std::mutex wait_mutex_;
  bool aborted_ = false;  // guarded by wait_mutex_
  Tensor user_;
  Tensor buffer_;
  std::unique_ptr<::gloo::transport::UnboundBuffer> ub_;
  bool is_send_;
  std::chrono::milliseconds default_timeout_;
};

}  // namespace

IntrusivePtr<Work> ProcessGroupGloo::send(std::vector<Tensor>& tensors, int dstRank, int tag) {
  const Tensor& t = gloo_backend::single_tensor("send", tensors);
  BRASA_CHECK(dstRank >= 0 && dstRank < size_ && dstRank != rank_,
              "ProcessGroupGloo::send: dstRank ", dstRank, " is out of range or this rank (rank ",
              rank_, " of ", size_, ")");
  BRASA_CHECK(tag >= 0, "ProcessGroupGloo::send: tag must be >= 0, got ", tag);
  Tensor buffer = t.contiguous();
  const std::string label = "ProcessGroupGloo::send (rank " + std::to_string(rank_) + " to " +
                            std::to_string(dstRank) + ", tag " + std::to_string(tag) + ", " +
                            gloo_backend::describe(t) + ")";
  std::unique_ptr<::gloo::transport::UnboundBuffer> ub;
  run_translating(label, impl_->timeout, [&] {
    ub = impl_->contexts[0]->createUnboundBuffer(buffer.data_ptr(), buffer.nbytes());
    ub->send(dstRank, static_cast<uint64_t>(tag));
  });
  return make_intrusive<P2PWork>(label, t, buffer, std::move(ub), true, impl_->timeout);
}

IntrusivePtr<Work> ProcessGroupGloo::recv(std::vector<Tensor>& tensors, int srcRank, int tag) {
  const Tensor& t = gloo_backend::single_tensor("recv", tensors);
  BRASA_CHECK(srcRank >= 0 && srcRank < size_ && srcRank != rank_,
              "ProcessGroupGloo::recv: srcRank ", srcRank, " is out of range or this rank (rank ",
              rank_, " of ", size_, ")");
  BRASA_CHECK(tag >= 0, "ProcessGroupGloo::recv: tag must be >= 0, got ", tag);
  Tensor buffer = t.is_contiguous() ? t : t.contiguous();
  const std::string label = "ProcessGroupGloo::recv (rank " + std::to_string(rank_) + " from " +
                            std::to_string(srcRank) + ", tag " + std::to_string(tag) + ", " +
                            gloo_backend::describe(t) + ")";
  std::unique_ptr<::gloo::transport::UnboundBuffer> ub;
  run_translating(label, impl_->timeout, [&] {
    ub = impl_->contexts[0]->createUnboundBuffer(buffer.data_ptr(), buffer.nbytes());
    ub->recv(srcRank, static_cast<uint64_t>(tag));
  });
  auto work = make_intrusive<P2PWork>(label, t, buffer, std::move(ub), false, impl_->timeout);
  work->set_source_rank(srcRank);
  return work;
}

}  // namespace brasa::distributed
