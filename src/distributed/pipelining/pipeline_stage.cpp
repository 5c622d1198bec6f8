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
// Tags between stage s and s + 1: 1 + 3s for the header; 2 + 3k (forward) and 3 + 3k (backward)
// with k = s * n_microbatches + mb for the data, so no two messages of one pair of ranks (which
// carries the boundaries s, s + p, ... with v stages per rank) share a tag within a step.
int header_tag(int64_t boundary) { return static_cast<int>(1 + 3 * boundary); }

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
  const int64_t ranks = group_->getSize();
  BRASA_CHECK(num_stages >= 1 && num_stages % ranks == 0, "PipelineStage: ", num_stages,
              " stages on a group of ", ranks,
              " ranks (one stage per rank, or the same number on every rank)");
  BRASA_CHECK(stage_ >= 0 && stage_ < num_stages, "PipelineStage: stage ", stage_,
              " is out of range for ", num_stages, " stages");
  BRASA_CHECK(stage_ % ranks == group_->getRank(), "PipelineStage: stage ", stage_, " of ",
              num_stages, " must run on group rank ", stage_ % ranks, ", not ", group_->getRank());
}

int PipelineStage::prev_rank() const { return static_cast<int>((stage_ - 1) % group_->getSize()); }
int PipelineStage::next_rank() const { return static_cast<int>((stage_ + 1) % group_->getSize()); }
int PipelineStage::data_tag(int64_t boundary, int64_t mb, bool backward) const {
  return static_cast<int>(2 + 3 * (boundary * n_ + mb) + (backward ? 1 : 0));
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
  n_ = n_microbatches;
}

void PipelineStage::agree_shapes(const Tensor& first_input) { agree_shapes({this}, first_input); }

void PipelineStage::agree_shapes(const std::vector<PipelineStage*>& local_stages,
                                 const Tensor& first_input) {
  // The header goes through the stages in order (each rank's in increasing order, so the chain
  // never waits on a later stage); every stage sees whether the shapes are agreed anew.
  bool renegotiate = false;
  for (PipelineStage* st : local_stages)
    renegotiate = st->exchange_header(st->is_first() ? first_input : Tensor());
  if (!renegotiate) return;
  // Every rank learns which stages failed: one flag per stage it holds (all hold as many).
  PipelineStage& any = *local_stages.front();
  const int64_t v = static_cast<int64_t>(local_stages.size());
  const int64_t ranks = any.group_->getSize();
  std::vector<Tensor> mine{zeros({v}, kLong)};
  for (int64_t k = 0; k < v; ++k)
    mine[0].data_ptr<int64_t>()[k] = local_stages[static_cast<size_t>(k)]->problem_.empty() ? 0 : 1;
  std::vector<std::vector<Tensor>> all(1);
  for (int64_t r = 0; r < ranks; ++r) all[0].push_back(empty({v}, kLong));
  any.group_->allgather(all, mine)->wait();
  for (PipelineStage* st : local_stages) {
    if (!st->problem_.empty()) shape_error(st->problem_);
  }
  for (int64_t r = 0; r < ranks; ++r) {
    for (int64_t k = 0; k < v; ++k) {
      if (all[0][static_cast<size_t>(r)].data_ptr<int64_t>()[k] != 0) {
        shape_error("pipeline stage ", k * ranks + r,
                    " rejected its input shape (its error names the shapes); stage ",
                    local_stages.front()->stage_, " stops too");
      }
    }
  }
  for (PipelineStage* st : local_stages) {
    st->in_shape_ = st->pending_in_;
    st->out_shape_ = st->pending_out_;
    st->dtype_ = st->pending_dtype_;
    st->out_dtype_ = st->pending_out_dtype_;
    st->agreed_ = true;
  }
}

bool PipelineStage::exchange_header(const Tensor& first_input) {
  problem_.clear();
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
    group_->recv(v, prev_rank(), header_tag(stage_ - 1))->wait();
    wait_seconds_ += seconds_since(t0);
  }
  const bool renegotiate = h[0] != 0;
  if (!renegotiate) {  // the agreed shapes hold: pass the header on
    if (!is_last()) {
      std::vector<Tensor> v{header};
      group_->send(v, next_rank(), header_tag(stage_))->wait();
    }
    return false;
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
    group_->send(v, next_rank(), header_tag(stage_))->wait();
  }
  problem_ = problem;
  pending_in_ = in;
  pending_out_ = out;
  pending_dtype_ = dtype;
  pending_out_dtype_ = out_dtype;
  return true;
}

void PipelineStage::forward_one(int64_t mb, const Tensor& input, const Tensor& target,
                                const std::function<Tensor(const Tensor&, const Tensor&)>& loss_fn,
                                int64_t n_microbatches) {
  MicroBatch& m = *mbs_.at(static_cast<size_t>(mb));
  peak_live_ = std::max(peak_live_, ++live_);
  Tensor x = input;
  if (!is_first()) {
    x = recv(in_shape_, dtype_, prev_rank(), data_tag(stage_ - 1, mb, false));
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
    send(y.detach(), next_rank(), data_tag(stage_, mb, false));
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
    Tensor g = recv(out_shape_, out_dtype_, next_rank(), data_tag(stage_, mb, true));
    const auto t0 = std::chrono::steady_clock::now();
    m.output.backward(g);
    compute_seconds_ += seconds_since(t0);
  }
  if (!is_first()) {
    Tensor g = m.input.grad();
    if (!g.defined()) g = zeros(in_shape_, dtype_);
    send(g, prev_rank(), data_tag(stage_ - 1, mb, true));
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
