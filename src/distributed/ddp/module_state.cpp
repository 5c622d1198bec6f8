// DDP's start: the same parameters on every rank (checked), rank 0's values everywhere.

#include <map>

#include "brasa/autograd/grad_mode.h"
#include "brasa/distributed/ddp.h"
#include "brasa/ops/factory.h"
#include "brasa/ops/indexing_ops.h"
#include "brasa/ops/reduce.h"
#include "brasa/ops/view.h"

namespace brasa::distributed::detail {
namespace {

// Flattens same-dtype tensors into one buffer per dtype, broadcasts it from rank 0, copies back.
void broadcast_coalesced(const std::vector<Tensor>& tensors, ProcessGroup& group) {
  std::map<ScalarType, std::vector<Tensor>> by_dtype;
  for (const auto& t : tensors)
    if (t.defined() && t.numel() > 0) by_dtype[t.scalar_type()].push_back(t);
  NoGradGuard no_grad;
  for (auto& [dtype, list] : by_dtype) {
    std::vector<Tensor> flat_parts;
    for (const auto& t : list) flat_parts.push_back(t.detach().reshape({-1}));
    std::vector<Tensor> flat{brasa::cat(flat_parts)};
    group.broadcast(flat, BroadcastOptions{})->wait();
    int64_t offset = 0;
    for (const auto& t : list) {
      t.detach().copy_(flat[0].narrow(0, offset, t.numel()).view(t.sizes()));
      offset += t.numel();
    }
  }
}

// One int64 tensor describing every parameter: count, then per parameter dtype, ndim, sizes.
Tensor signature(const OrderedDict<std::string, Tensor>& params) {
  std::vector<int64_t> sig{static_cast<int64_t>(params.size())};
  for (const auto& item : params) {
    const Tensor& p = item.value();
    sig.push_back(static_cast<int64_t>(p.scalar_type()));
    sig.push_back(p.dim());
    for (int64_t d = 0; d < p.dim(); ++d) sig.push_back(p.size(d));
  }
  Tensor t = brasa::empty({static_cast<int64_t>(sig.size())}, kInt64);
  std::copy(sig.begin(), sig.end(), t.data_ptr<int64_t>());
  return t;
}

}  // namespace

void sync_module_state(nn::Module& module, ProcessGroup& group) {
  const auto params = module.named_parameters();
  Tensor sig = signature(params);
  // Lengths first (allgather needs equal sizes), then the signatures themselves.
  std::vector<Tensor> len{brasa::full({1}, static_cast<double>(sig.numel()), kInt64)};
  std::vector<std::vector<Tensor>> lens(1);
  for (int r = 0; r < group.getSize(); ++r) lens[0].push_back(brasa::empty({1}, kInt64));
  group.allgather(lens, len)->wait();
  for (int r = 0; r < group.getSize(); ++r) {
    BRASA_CHECK(lens[0][static_cast<size_t>(r)].item<int64_t>() == sig.numel(),
                "DistributedDataParallel: rank ", group.getRank(), " and rank ", r,
                " have different parameter lists (", params.size(),
                " parameters here; the shapes differ in number or rank)");
  }
  std::vector<Tensor> mine{sig};
  std::vector<std::vector<Tensor>> all(1);
  for (int r = 0; r < group.getSize(); ++r) all[0].push_back(brasa::empty_like(sig));
  group.allgather(all, mine)->wait();
  for (int r = 0; r < group.getSize(); ++r) {
    const Tensor& other = all[0][static_cast<size_t>(r)];
    if (brasa::equal(other, sig)) continue;
    const int64_t* a = sig.data_ptr<int64_t>();
    const int64_t* b = other.data_ptr<int64_t>();
    int64_t pos = 1;
    for (const auto& item : params) {
      const int64_t n = 2 + item.value().dim();
      for (int64_t k = 0; k < n; ++k) {
        BRASA_CHECK(a[pos + k] == b[pos + k], "DistributedDataParallel: parameter '", item.key(),
                    "' differs between rank ", group.getRank(), " (shape ", item.value().sizes(),
                    ", dtype ", item.value().scalar_type(), ") and rank ", r,
                    "; every rank must build the same model");
      }
      pos += n;
    }
  }
  std::vector<Tensor> state = module.parameters();
  for (const auto& b : module.buffers()) state.push_back(b);
  broadcast_coalesced(state, group);
}

void broadcast_buffers(nn::Module& module, ProcessGroup& group) {
  if (group.getSize() > 1) broadcast_coalesced(module.buffers(), group);
}

}  // namespace brasa::distributed::detail
