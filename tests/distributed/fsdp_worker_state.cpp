// fsdp_worker state-dict: full and sharded state dicts of a fully_shard model, loading from a
// single-process model, rejected loads that change nothing, the tied-weight rule, and the error
// for a parameter that gets no gradient.

#include <cstdio>
#include <string>

#include "brasa/brasa.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/distributed/init.h"
#include "fsdp_net.h"

namespace {
using namespace brasa;
namespace dist = brasa::distributed;
using fsdp_test::Net;

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "rank %d: FAILED %s\n", dist::get_rank(), what.c_str());
  ++failures;
}

template <typename F>
void expect_value_error(F&& f, const std::string& fragment, const std::string& what) {
  try {
    f();
    expect(false, what + ": no error");
  } catch (const ValueError& e) {
    expect(std::string(e.what()).find(fragment) != std::string::npos,
           what + ": message '" + e.what() + "' lacks '" + fragment + "'");
  }
}

using Full = std::vector<std::pair<std::string, Tensor>>;

Full single_process_state(const Net& net) {
  Full out;
  for (const auto& item : net->named_parameters()) out.emplace_back(item.key(), item.value());
  for (const auto& item : net->named_buffers()) out.emplace_back(item.key(), item.value());
  return out;
}

bool same(const Full& a, const Full& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].first != b[i].first || !equal(a[i].second, b[i].second)) return false;
  }
  return true;
}

struct TiedImpl : nn::Module {
  explicit TiedImpl(const Tensor& w) { weight = register_parameter("weight", w); }
  Tensor forward(const Tensor& x) { return matmul(x, weight); }
  Tensor weight;
};
BRASA_MODULE(Tied);

struct PartlyImpl : nn::Module {
  PartlyImpl() {
    used = register_parameter("used", ones({3, 2}));
    unused = register_parameter("unused", ones({5}));
  }
  Tensor forward(const Tensor& x) { return matmul(x, used); }
  Tensor used, unused;
};
BRASA_MODULE(Partly);

}  // namespace

int state_dict_checks() {
  auto pg = dist::init_process_group("gloo");
  const int size = pg->getSize();
  auto mesh = dist::init_device_mesh("cpu", {size});
  manual_seed(7);
  Net net;
  manual_seed(7);
  Net single;
  const Full initial = single_process_state(single);
  std::vector<dist::FSDPModule<fsdp_test::Block>> units;
  for (size_t i = 0; i < net->blocks.size(); ++i) {
    units.push_back(dist::fully_shard(net->blocks[i], mesh));
    net->calls[i] = [u = units.back()](const Tensor& x) mutable { return u(x); };
  }
  auto root = dist::fully_shard(net, mesh);
  expect(same(dist::get_full_state_dict(*net, mesh), initial), "full state dict after sharding");
  for (const auto& [name, d] : dist::get_sharded_state_dict(*net, mesh)) {
    Tensor whole;
    for (const auto& e : initial) {
      if (e.first == name) whole = e.second;
    }
    auto want = dist::DTensor::distribute(whole, mesh, d.placements());
    expect(equal(d.to_local(), want.to_local()), "sharded entry " + name);
  }
  // Train a little, keep both forms, then load the initial single-process state and back.
  optim::AdamW opt(net->parameters(), optim::AdamWOptions(0.01));
  for (int s = 0; s < 3; ++s) {
    opt.zero_grad();
    Tensor x = ones({2, fsdp_test::kIn}) * (s + 1);
    root(x).pow(2).mean().backward();
    opt.step();
  }
  const Full trained = dist::get_full_state_dict(*net, mesh);
  const auto sharded = dist::get_sharded_state_dict(*net, mesh);
  expect(!same(trained, initial), "training changed the parameters");
  dist::set_full_state_dict(*net, initial);
  expect(same(dist::get_full_state_dict(*net, mesh), initial), "set_full_state_dict");
  dist::set_sharded_state_dict(*net, sharded);
  expect(same(dist::get_full_state_dict(*net, mesh), trained), "set_sharded_state_dict");
  // Rejected loads name the entry and change nothing.
  Full missing(initial.begin() + 1, initial.end());
  expect_value_error([&] { dist::set_full_state_dict(*net, missing); }, initial[0].first,
                     "a missing entry");
  Full wrong = initial;
  wrong[1].second = zeros({3, 3});
  expect_value_error([&] { dist::set_full_state_dict(*net, wrong); }, "has shape", "a wrong shape");
  expect(same(dist::get_full_state_dict(*net, mesh), trained), "rejected loads changed nothing");
  // A weight shared by two sibling units: the second fully_shard refuses it.
  Tensor w = ones({4, 4});
  Tied a(w), b(w);
  auto ua = dist::fully_shard(a, mesh);
  expect_value_error([&] { dist::fully_shard(b, mesh); }, "common ancestor", "a tied weight");
  // A parameter that gets no gradient: the next forward names it.
  Partly partly;
  auto up = dist::fully_shard(partly, mesh);
  up(ones({1, 3})).sum().backward();
  expect_value_error([&] { up(ones({1, 3})); }, "'unused' got no gradient", "an unused parameter");
  dist::destroy_process_group();
  return failures == 0 ? 0 : 1;
}
