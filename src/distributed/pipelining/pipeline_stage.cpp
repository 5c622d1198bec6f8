// PipelineStage: a stage's forward and backward of one micro-batch, the send/recv of activations
// and their gradients, and the agreement on activation shapes (Note [Pipeline schedules]).

#include <chrono>

#include "brasa/autograd/grad_mode.h"
#include "brasa/brasa.h"
#include "brasa/distributed/ddp.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/pipelining.h"

namespace brasa::distributed::pipelining {
namespace {

constexpr int64_t kMaxDims = 16;
// Header: [renegotiate, ok, dtype, ndim, dims...] (Note [Pipeline schedules]).
constexpr int64_t kHeader = 4 + kMaxDims;
constexpr int kHeaderTag = 1;
int forward_tag(int64_t mb) { return static_cast<int>(2 + 2 * mb); }
int backward_tag(int64_t mb) { return static_cast<int>(3 + 2 * mb); }

template <typename... Args>
[[noreturn]] void shape_error(const Args&... args) {
  throw PipeliningShapeError(brasa::detail::str_cat(args...));
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

struct PipelineStage::MicroBatch {
  Tensor input;   // the received activation (requires grad), stages after the first
  Tensor output;  // stages before the last
  Tensor loss;    // last stage: the unscaled loss
  Tensor scaled;  // last stage: loss / n_microbatches, what backward starts from
};

PipelineStage::PipelineStage(nn::Sequential module, int64_t stage_index, int64_t num_stages,
                             IntrusivePtr<ProcessGroup> group,
                             std::optional<std::vector<int64_t>> input_shape)
    : module_(std::move(module)),
      stage_(stage_index),
      num_stages_(num_stages),
      group_(group ? std::move(group) : default_process_group()),
      declared_input_(std::move(input_shape)) {
  BRASA_CHECK(group_->getSize() == num_stages, "PipelineStage: ", num_stages,
              " stages need a group of ", num_stages, " ranks, got ", group_->getSize());
  BRASA_CHECK(stage_ == group_->getRank(), "PipelineStage: stage ", stage_,
              " must run on group rank ", stage_, ", not ", group_->getRank());
}

PipelineStage::~PipelineStage() {
  for (auto& w : sends_) {
    try {
      w->wait();
    } catch (...) {  // the step failed already; nothing to report from a destructor
    }
  }
}

Tensor PipelineStage::recv(const std::vector<int64_t>& shape, ScalarType dtype, int src, int tag) {
  std::vector<Tensor> t{empty(shape, dtype)};
  const auto t0 = std::chrono::steady_clock::now();
  group_->recv(t, src, tag)->wait();
  wait_seconds_ += seconds_since(t0);
  return t[0];
}

void PipelineStage::send(const Tensor& t, int dst, int tag) {
  std::vector<Tensor> v{t.contiguous()};
  sent_.push_back(v[0]);
  sends_.push_back(group_->send(v, dst, tag));
}

void PipelineStage::begin_step(int64_t n_microbatches) {
  mbs_.clear();
  for (int64_t i = 0; i < n_microbatches; ++i) mbs_.push_back(std::make_unique<MicroBatch>());
  if (reducer_) {  // one synchronised DDP iteration per step: its last backward (backward_one)
    reducer_->set_sync(true);
    reducer_->prepare_for_forward();
    reducer_->set_sync(false);
    backwards_left_ = n_microbatches;
  }
  wait_seconds_ = compute_seconds_ = 0;
  live_ = peak_live_ = 0;
}

void PipelineStage::agree_shapes(const Tensor& first_input) {
  const int rank = static_cast<int>(stage_);
  Tensor header = zeros({kHeader}, kLong);
  auto* h = header.data_ptr<int64_t>();
  if (is_first()) {
    h[0] = !agreed_ || first_input.sizes() != IntArrayRef(in_shape_) ||
           first_input.scalar_type() != dtype_;
    h[1] = 1;
    h[2] = static_cast<int64_t>(first_input.scalar_type());
    h[3] = first_input.dim();
    if (!(first_input.dim() <= kMaxDims))
      shape_error("pipeline stage 0: inputs of more than ", kMaxDims, " dims");
    for (int64_t d = 0; d < first_input.dim(); ++d) h[4 + d] = first_input.size(d);
  } else {
    std::vector<Tensor> v{header};
    const auto t0 = std::chrono::steady_clock::now();
    group_->recv(v, rank - 1, kHeaderTag)->wait();
    wait_seconds_ += seconds_since(t0);
  }
  const bool renegotiate = h[0] != 0;
  if (!renegotiate) {  // the agreed shapes hold: pass the header on
    if (!is_last()) {
      std::vector<Tensor> v{header};
      group_->send(v, rank + 1, kHeaderTag)->wait();
    }
    return;
  }
  const bool upstream_ok = h[1] != 0;
  const auto dtype = static_cast<ScalarType>(h[2]);
  const std::vector<int64_t> in(h + 4, h + 4 + h[3]);
  std::string problem;
  std::vector<int64_t> out;
  ScalarType out_dtype = dtype;
  if (upstream_ok) {
    if (declared_input_ && *declared_input_ != in) {
      problem = brasa::detail::str_cat(
          "pipeline stage ", stage_, " expects input ", IntArrayRef(*declared_input_), " but ",
          is_first() ? std::string("the micro-batch is ")
                     : brasa::detail::str_cat("stage ", stage_ - 1, " sends "),
          IntArrayRef(in));
    } else {
      try {
        NoGradGuard no_grad;
        Tensor y = module_->forward(zeros(in, dtype));
        out = y.sizes().vec();
        out_dtype = y.scalar_type();
        BRASA_CHECK(y.dim() <= kMaxDims, "an output of more than ", kMaxDims, " dims");
      } catch (const Error& e) {
        problem = brasa::detail::str_cat(
            "pipeline stage ", stage_, " cannot run on the input ", IntArrayRef(in), " ", dtype,
            is_first() ? std::string(" of the micro-batch")
                       : brasa::detail::str_cat(" that stage ", stage_ - 1, " sends"),
            ": ", e.what());
      }
    }
  }
  if (!is_last()) {
    Tensor next = zeros({kHeader}, kLong);
    auto* n = next.data_ptr<int64_t>();
    n[0] = 1;
    n[1] = upstream_ok && problem.empty();
    n[2] = static_cast<int64_t>(out_dtype);
    n[3] = static_cast<int64_t>(out.size());
    for (size_t d = 0; d < out.size(); ++d) n[4 + d] = out[d];
    std::vector<Tensor> v{next};
    group_->send(v, rank + 1, kHeaderTag)->wait();
  }
  // Every stage learns which stages failed.
  std::vector<Tensor> mine{full({1}, problem.empty() ? 0 : 1, kLong)};
  std::vector<std::vector<Tensor>> all(1);
  for (int64_t s = 0; s < num_stages_; ++s) all[0].push_back(empty({1}, kLong));
  group_->allgather(all, mine)->wait();
  if (!problem.empty()) shape_error(problem);
  for (int64_t s = 0; s < num_stages_; ++s) {
    if (all[0][static_cast<size_t>(s)].item<int64_t>() != 0) {
      shape_error("pipeline stage ", s,
                  " rejected its input shape (its error names the shapes); stage ", stage_,
                  " stops too");
    }
  }
  in_shape_ = in;
  out_shape_ = out;
  dtype_ = dtype;
  out_dtype_ = out_dtype;
  agreed_ = true;
}

void PipelineStage::forward_one(int64_t mb, const Tensor& input, const Tensor& target,
                                const std::function<Tensor(const Tensor&, const Tensor&)>& loss_fn,
                                int64_t n_microbatches) {
  MicroBatch& m = *mbs_.at(static_cast<size_t>(mb));
  peak_live_ = std::max(peak_live_, ++live_);
  Tensor x = input;
  if (!is_first()) {
    x = recv(in_shape_, dtype_, static_cast<int>(stage_ - 1), forward_tag(mb));
    x.requires_grad_(true);
    m.input = x;
  } else {
    if (!(x.sizes() == IntArrayRef(in_shape_)))
      shape_error("pipeline stage 0: micro-batch ", mb, " has shape ", x.sizes(), ", not ",
                  IntArrayRef(in_shape_));
  }
  const auto t0 = std::chrono::steady_clock::now();
  Tensor y = module_->forward(x);
  if (!(y.sizes() == IntArrayRef(out_shape_) && y.scalar_type() == out_dtype_))
    shape_error("pipeline stage ", stage_, ": micro-batch ", mb, " gave an output of shape ",
                y.sizes(), " ", y.scalar_type(), " but the stages agreed on ",
                IntArrayRef(out_shape_), " ", out_dtype_, " (shapes must be static)");
  if (is_last()) {
    m.loss = loss_fn(y, target);
    m.scaled = m.loss / static_cast<double>(n_microbatches);
    compute_seconds_ += seconds_since(t0);
  } else {
    compute_seconds_ += seconds_since(t0);
    m.output = y;
    send(y.detach(), static_cast<int>(stage_ + 1), forward_tag(mb));
  }
}

void PipelineStage::backward_one(int64_t mb) {
  MicroBatch& m = *mbs_.at(static_cast<size_t>(mb));
  if (reducer_ && --backwards_left_ == 0) {  // the step's last backward all-reduces the sums
    reducer_->set_sync(true);
    reducer_->prepare_for_backward({is_last() ? m.scaled : m.output});
  }
  if (is_last()) {
    const auto t0 = std::chrono::steady_clock::now();
    m.scaled.backward();
    compute_seconds_ += seconds_since(t0);
  } else {
    Tensor g = recv(out_shape_, out_dtype_, static_cast<int>(stage_ + 1), backward_tag(mb));
    const auto t0 = std::chrono::steady_clock::now();
    m.output.backward(g);
    compute_seconds_ += seconds_since(t0);
  }
  if (!is_first()) {
    Tensor g = m.input.grad();
    if (!g.defined()) g = zeros(in_shape_, dtype_);
    send(g, static_cast<int>(stage_ - 1), backward_tag(mb));
  }
  --live_;
  Tensor loss = m.loss;
  *mbs_[static_cast<size_t>(mb)] = MicroBatch{};
  mbs_[static_cast<size_t>(mb)]->loss = loss;
}

std::vector<Tensor> PipelineStage::end_step() {
  if (reducer_) reducer_->set_sync(true);
  for (auto& w : sends_) w->wait();
  sends_.clear();
  sent_.clear();
  std::vector<Tensor> losses;
  if (is_last()) {
    for (auto& m : mbs_) losses.push_back(m->loss.detach());
  }
  mbs_.clear();
  return losses;
}

}  // namespace brasa::distributed::pipelining
