// The default (MT19937) generator against live PyTorch 1.13: after manual_seed(s) every sampling op
// must give libtorch's CPU values bit for bit (Note [libtorch CPU sampling]), for sizes on both
// sides of the 16-element block form, several dtypes and non-contiguous outputs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "brasa/brasa.h"
#include "support/torch_oracle.h"

using namespace brasa;
using brasa::testing_oracle::run_python_shared;

namespace {

const char* kBody = R"PY(
torch.set_default_dtype(torch.float32)
F = torch.nn.functional
dts = {'f32': torch.float32, 'f64': torch.float64, 'f16': torch.float16, 'bf16': torch.bfloat16}
sizes = [1, 15, 16, 17, 33, 1000]
for seed in [0, 7]:
    for dn, dt in dts.items():
        for n in sizes:
            torch.manual_seed(seed); pr('rand_%d_%s_%d' % (seed, dn, n), torch.rand(n, dtype=dt))
            torch.manual_seed(seed); pr('randn_%d_%s_%d' % (seed, dn, n), torch.randn(n, dtype=dt))
        torch.manual_seed(seed)
        pr('uniform_%d_%s' % (seed, dn), torch.empty(100, dtype=dt).uniform_(-1/3, 2/7))
        torch.manual_seed(seed)
        pr('normal_%d_%s' % (seed, dn), torch.empty(100, dtype=dt).normal_(0.3, 2.5))
        torch.manual_seed(seed)
        pr('normal_small_%d_%s' % (seed, dn), torch.empty(7, dtype=dt).normal_(-1.5, 0.25))
# a sequence: the cached second normal carries over calls; the block form does not use it
torch.manual_seed(3)
pr('seq', torch.cat([torch.randn(3, dtype=torch.float64), torch.randn(5, dtype=torch.float64),
                     torch.randn(20).double(), torch.randn(1).double(), torch.rand(2).double()]))
# non-contiguous outputs: memory order
for dn in ['f32', 'f64']:
    dt = dts[dn]
    torch.manual_seed(11); t = torch.zeros(40, 50, dtype=dt).t(); t.normal_(); pr('nc_normal_t_' + dn, t)
    torch.manual_seed(11); t = torch.zeros(40, 50, dtype=dt).t(); t.uniform_(); pr('nc_uniform_t_' + dn, t)
    torch.manual_seed(11); b = torch.zeros(10, 20, dtype=dt); v = b[:, ::2]; v.normal_(); pr('nc_normal_s_' + dn, b)
    torch.manual_seed(11); b = torch.zeros(20, 10, dtype=dt); v = b.t()[::2]; v.uniform_(); pr('nc_uniform_ts_' + dn, b)
    torch.manual_seed(11); b = torch.zeros(4, 3, 5, dtype=dt); b.permute(2, 0, 1).bernoulli_(0.4); pr('nc_bern_' + dn, b)
# randint / random_
for seed in [0, 7]:
    torch.manual_seed(seed); pr('randint_%d' % seed, torch.randint(0, 10, (1000,)))
    torch.manual_seed(seed); pr('randint_wide_%d' % seed, torch.randint(-5, 2**40, (17,)))
    torch.manual_seed(seed); pr('randint_wide_f32_%d' % seed, torch.randint(0, 2**33, (17,), dtype=torch.float32))
    torch.manual_seed(seed); pr('randint_f16_%d' % seed, torch.randint(-3000, 5001, (17,), dtype=torch.float16))
    torch.manual_seed(seed); pr('randint_i32_%d' % seed, torch.randint(-100, 100, (33,), dtype=torch.int32))
    torch.manual_seed(seed); pr('randint_bool_%d' % seed, torch.randint(0, 2, (33,), dtype=torch.bool).int())
    torch.manual_seed(seed); pr('randint_nc_%d' % seed, torch.zeros(6, 7, dtype=torch.int64).t().random_(3, 50).t())
    for n in [1, 2, 15, 16, 17, 1000]:
        torch.manual_seed(seed); pr('randperm_%d_%d' % (seed, n), torch.randperm(n))
    torch.manual_seed(seed); pr('randperm_i32_%d' % seed, torch.randperm(100, dtype=torch.int32))
    torch.manual_seed(seed); pr('randperm_f32_%d' % seed, torch.randperm(100, dtype=torch.float32))
# bernoulli with a scalar p
for seed in [0, 7]:
    for dn, dt in [('f32', torch.float32), ('f64', torch.float64), ('bool', torch.bool), ('i64', torch.int64)]:
        for n in [1, 17, 1000]:
            torch.manual_seed(seed); pr('bern_%d_%s_%d' % (seed, dn, n), torch.empty(n, dtype=dt).bernoulli_(0.3).double())
# bernoulli with a tensor p: a float p compares 24-bit uniforms, a double p 53-bit ones
pf = torch.arange(40, dtype=torch.float32).reshape(5, 8) / 40
for seed in [0, 7]:
    torch.manual_seed(seed); pr('bernp_f32_%d' % seed, torch.bernoulli(pf))
    torch.manual_seed(seed); pr('bernp_f64_%d' % seed, torch.bernoulli(pf.double()))
    torch.manual_seed(seed); pr('bernp_bcast_%d' % seed, torch.zeros(8, 5).t().bernoulli_(pf[:, 0:1].double()).t())
# dropout masks
x = torch.arange(1000, dtype=torch.float32) / 128 - 2  # exact in float on both sides
x4 = (torch.arange(4 * 8 * 3 * 3, dtype=torch.float32) / 128 - 1).reshape(4, 8, 3, 3)
torch.manual_seed(5); pr('dropout', F.dropout(x, 0.3, training=True))
torch.manual_seed(5); pr('dropout_module', torch.nn.Dropout(0.5).train()(x4))
torch.manual_seed(5); pr('dropout2d', F.dropout2d(x4, 0.25, training=True))
torch.manual_seed(5); pr('dropout3d', F.dropout3d(x4.unsqueeze(2), 0.25, training=True))
torch.manual_seed(5); pr('alpha_dropout', F.alpha_dropout(x, 0.2, training=True))
torch.manual_seed(5); pr('dropout_f64', F.dropout(x.double(), 0.6, training=True))
# exponential_, geometric_
torch.manual_seed(9); pr('exponential', torch.empty(100, dtype=torch.float64).exponential_(1.7))
torch.manual_seed(9); pr('exponential_f32', torch.empty(100).exponential_(0.5))
torch.manual_seed(9); pr('geometric', torch.empty(100, dtype=torch.float64).geometric_(0.123456))
# multinomial
w = torch.tensor([0.1, 0.0, 2.0, 0.5, 1.25, 0.3])
w2 = torch.stack([w, w.flip(0), torch.ones(6)])
for seed in [0, 7]:
    torch.manual_seed(seed); pr('multi_repl_%d' % seed, torch.multinomial(w, 50, True))
    torch.manual_seed(seed); pr('multi_repl2_%d' % seed, torch.multinomial(w2, 20, True))
    torch.manual_seed(seed); pr('multi_repl_f64_%d' % seed, torch.multinomial(w.double(), 20, True))
    torch.manual_seed(seed); pr('multi_norepl_%d' % seed, torch.multinomial(w, 4, False))
    torch.manual_seed(seed); pr('multi_norepl2_%d' % seed, torch.multinomial(w2, 3, False))
    torch.manual_seed(seed); pr('multi_one_%d' % seed, torch.multinomial(w2, 1, True))
# generator state: libtorch's bytes
torch.manual_seed(5); torch.randn(3, dtype=torch.float64)
pr('state', torch.get_rng_state())
pr('after_state', torch.randn(4, dtype=torch.float64))
g = torch.Generator(); g.manual_seed(2**40 + 5); torch.rand(1, generator=g)
pr('gen_state', g.get_state())
# models and initialisers
torch.manual_seed(0); lin = torch.nn.Linear(784, 10)
pr('linear_w', lin.weight); pr('linear_b', lin.bias)
torch.manual_seed(0); conv = torch.nn.Conv2d(3, 8, 3)
pr('conv_w', conv.weight); pr('conv_b', conv.bias)
I = torch.nn.init
torch.manual_seed(1)
w = torch.empty(30, 20)
I.kaiming_uniform_(w); pr('kaiming_uniform', w)
I.kaiming_normal_(w, mode='fan_out', nonlinearity='relu'); pr('kaiming_normal', w)
I.xavier_uniform_(w, gain=1.5); pr('xavier_uniform', w)
I.xavier_normal_(w); pr('xavier_normal', w)
I.uniform_(w, -0.2, 0.1); pr('init_uniform', w)
I.normal_(w, 0.5, 0.1); pr('init_normal', w)
I.sparse_(w, 0.3, 0.02); pr('sparse', w)
I.orthogonal_(w, 1.3); pr('orthogonal_tall', w)
wt = torch.empty(5, 12); I.orthogonal_(wt); pr('orthogonal_wide', wt)
I.trunc_normal_(w, 0.1, 0.5, -0.4, 0.8); pr('trunc_normal', w)
pr('after_init', torch.rand(3))
def params(tag, m):
    for n, p in m.named_parameters(): pr(tag + ':' + n, p)
torch.manual_seed(0); params('embedding', torch.nn.Embedding(10, 4))
torch.manual_seed(0); params('lstm', torch.nn.LSTM(4, 6, num_layers=2))
torch.manual_seed(0); params('gru', torch.nn.GRU(3, 5))
torch.manual_seed(0); params('mha', torch.nn.MultiheadAttention(8, 2))
torch.manual_seed(0); params('bilinear', torch.nn.Bilinear(3, 4, 5))
torch.manual_seed(0); params('convt', torch.nn.ConvTranspose2d(4, 3, 2))
)PY";

const std::map<std::string, std::vector<double>>& torch_values() {
  return run_python_shared(kBody);
}

// Exact equality, element by element, with PyTorch's values for `key`.
void expect_same(const std::string& key, const Tensor& t) {
  brasa::testing_oracle::expect_equal(key, t, torch_values());
}

// Within `tol` (for results that go through a factorisation or erfinv of brasa's own).
void expect_close(const std::string& key, const Tensor& t, double tol) {
  testing_oracle::expect_close(key, t, torch_values(), tol);
}

const std::vector<std::pair<std::string, ScalarType>> kFloatDtypes = {
    {"f32", kFloat}, {"f64", kDouble}, {"f16", kHalf}, {"bf16", kBFloat16}};

}  // namespace

TEST(RandomTorch, RandAndRandnEveryDtypeAndSize) {
  for (int seed : {0, 7}) {
    for (const auto& [name, dt] : kFloatDtypes) {
      for (int64_t n : {1, 15, 16, 17, 33, 1000}) {
        const std::string suffix = std::to_string(seed) + "_" + name + "_" + std::to_string(n);
        manual_seed(seed);
        expect_same("rand_" + suffix, rand({n}, TensorOptions(dt)));
        manual_seed(seed);
        expect_same("randn_" + suffix, randn({n}, TensorOptions(dt)));
      }
      const std::string suffix = std::to_string(seed) + "_" + name;
      manual_seed(seed);
      expect_same("uniform_" + suffix, empty({100}, TensorOptions(dt)).uniform_(-1.0 / 3, 2.0 / 7));
      manual_seed(seed);
      expect_same("normal_" + suffix, empty({100}, TensorOptions(dt)).normal_(0.3, 2.5));
      manual_seed(seed);
      expect_same("normal_small_" + suffix, empty({7}, TensorOptions(dt)).normal_(-1.5, 0.25));
    }
  }
}

TEST(RandomTorch, CachedNormalCarriesOverCalls) {
  manual_seed(3);
  expect_same("seq", cat({randn({3}, kDouble), randn({5}, kDouble), randn({20}).to(kDouble),
                          randn({1}).to(kDouble), rand({2}).to(kDouble)}));
}

TEST(RandomTorch, NonContiguousOutputsFillInMemoryOrder) {
  for (const auto& [name, dt] :
       {std::pair<std::string, ScalarType>{"f32", kFloat}, {"f64", kDouble}}) {
    manual_seed(11);
    Tensor t = zeros({40, 50}, dt).t();
    t.normal_();
    expect_same("nc_normal_t_" + name, t);
    manual_seed(11);
    t = zeros({40, 50}, dt).t();
    t.uniform_();
    expect_same("nc_uniform_t_" + name, t);
    manual_seed(11);
    Tensor b = zeros({10, 20}, dt);
    b.slice(1, 0, 20, 2).normal_();
    expect_same("nc_normal_s_" + name, b);
    manual_seed(11);
    b = zeros({20, 10}, dt);
    b.t().slice(0, 0, 10, 2).uniform_();
    expect_same("nc_uniform_ts_" + name, b);
    manual_seed(11);
    b = zeros({4, 3, 5}, dt);
    b.permute({2, 0, 1}).bernoulli_(0.4);
    expect_same("nc_bern_" + name, b);
  }
}

TEST(RandomTorch, RandintAndRandperm) {
  for (int seed : {0, 7}) {
    const std::string s = std::to_string(seed);
    manual_seed(seed);
    expect_same("randint_" + s, randint(0, 10, {1000}));
    manual_seed(seed);
    expect_same("randint_wide_" + s, randint(-5, int64_t(1) << 40, {17}));
    manual_seed(seed);
    expect_same("randint_wide_f32_" + s, randint(0, int64_t(1) << 33, {17}, TensorOptions(kFloat)));
    manual_seed(seed);  // libtorch narrows [-3000, 5001) to what Half holds, [-3000, 4996]
    expect_same("randint_f16_" + s, randint(-3000, 5001, {17}, TensorOptions(kHalf)));
    manual_seed(seed);
    expect_same("randint_i32_" + s, randint(-100, 100, {33}, TensorOptions(kInt)));
    manual_seed(seed);
    expect_same("randint_bool_" + s, randint(0, 2, {33}, TensorOptions(kBool)));
    manual_seed(seed);
    expect_same("randint_nc_" + s, zeros({6, 7}, kLong).t().random_(3, 50).t());
    for (int64_t n : {1, 2, 15, 16, 17, 1000}) {
      manual_seed(seed);
      expect_same("randperm_" + s + "_" + std::to_string(n), randperm(n));
    }
    manual_seed(seed);
    expect_same("randperm_i32_" + s, randperm(100, TensorOptions(kInt)));
    manual_seed(seed);
    expect_same("randperm_f32_" + s, randperm(100, TensorOptions(kFloat)));
  }
}

TEST(RandomTorch, BernoulliScalar) {
  for (int seed : {0, 7}) {
    for (const auto& [name, dt] : {std::pair<std::string, ScalarType>{"f32", kFloat},
                                   {"f64", kDouble},
                                   {"bool", kBool},
                                   {"i64", kLong}}) {
      for (int64_t n : {1, 17, 1000}) {
        manual_seed(seed);
        expect_same("bern_" + std::to_string(seed) + "_" + name + "_" + std::to_string(n),
                    empty({n}, TensorOptions(dt)).bernoulli_(0.3));
      }
    }
  }
}

TEST(RandomTorch, BernoulliTensorP) {
  Tensor pf = arange(40, kFloat).reshape({5, 8}) / 40;
  for (int seed : {0, 7}) {
    const std::string s = std::to_string(seed);
    manual_seed(seed);
    expect_same("bernp_f32_" + s, bernoulli(pf));
    manual_seed(seed);
    expect_same("bernp_f64_" + s, bernoulli(pf.to(kDouble)));
    manual_seed(seed);  // a transposed self and a broadcast p
    expect_same("bernp_bcast_" + s,
                bernoulli_(zeros({8, 5}).t(), pf.slice(1, 0, 1).to(kDouble)).t());
  }
  EXPECT_THROW(bernoulli(pf * 2), ValueError);
  EXPECT_THROW(bernoulli(ones({3}, kLong)), TypeError);
  EXPECT_THROW(bernoulli_(zeros({2, 3}), ones({4}) / 2), ValueError);
}

TEST(RandomTorch, DropoutMasks) {
  namespace F = nn::functional;
  Tensor x = arange(1000, kFloat) / 128 - 2;
  Tensor x4 = (arange(4 * 8 * 3 * 3, kFloat) / 128 - 1).reshape({4, 8, 3, 3});
  manual_seed(5);
  expect_same("dropout", F::dropout(x, F::DropoutFuncOptions().p(0.3).training(true)));
  manual_seed(5);
  nn::Dropout module(0.5);
  module->train();
  expect_same("dropout_module", module(x4));
  manual_seed(5);
  expect_same("dropout2d", F::dropout2d(x4, F::Dropout2dFuncOptions().p(0.25).training(true)));
  manual_seed(5);
  expect_same("dropout3d",
              F::dropout3d(x4.unsqueeze(2), F::Dropout3dFuncOptions().p(0.25).training(true)));
  manual_seed(5);
  expect_same("alpha_dropout",
              F::alpha_dropout(x, F::AlphaDropoutFuncOptions().p(0.2).training(true)));
  manual_seed(5);
  expect_same("dropout_f64",
              F::dropout(x.to(kDouble), F::DropoutFuncOptions().p(0.6).training(true)));
}

TEST(RandomTorch, ExponentialAndGeometric) {
  manual_seed(9);
  expect_same("exponential", empty({100}, kDouble).exponential_(1.7));
  manual_seed(9);
  expect_same("exponential_f32", empty({100}).exponential_(0.5));
  manual_seed(9);
  expect_same("geometric", empty({100}, kDouble).geometric_(0.123456));
}

TEST(RandomTorch, Multinomial) {
  Tensor w = tensor({0.1, 0.0, 2.0, 0.5, 1.25, 0.3}).to(kFloat);
  Tensor w2 = stack({w, w.flip({0}), ones({6})});
  for (int seed : {0, 7}) {
    const std::string s = std::to_string(seed);
    manual_seed(seed);
    expect_same("multi_repl_" + s, multinomial(w, 50, true));
    manual_seed(seed);
    expect_same("multi_repl2_" + s, multinomial(w2, 20, true));
    manual_seed(seed);
    expect_same("multi_repl_f64_" + s, multinomial(w.to(kDouble), 20, true));
    manual_seed(seed);
    expect_same("multi_norepl_" + s, multinomial(w, 4, false));
    manual_seed(seed);
    expect_same("multi_norepl2_" + s, multinomial(w2, 3, false));
    manual_seed(seed);
    expect_same("multi_one_" + s, multinomial(w2, 1, true));
  }
}

TEST(RandomTorch, GeneratorStateIsLibtorchs) {
  manual_seed(5);
  (void)randn({3}, kDouble);
  Tensor state = get_rng_state();
  expect_same("state", state);
  expect_same("after_state", randn({4}, kDouble));
  // torch's bytes restore brasa's stream: the cached normal comes back with them.
  const auto& ref = torch_values().at("state");
  std::vector<uint8_t> bytes(ref.begin(), ref.end());
  Tensor torch_state = empty({int64_t(bytes.size())}, kByte);
  std::memcpy(torch_state.data_ptr(), bytes.data(), bytes.size());
  (void)rand({100});
  set_rng_state(torch_state);
  expect_same("after_state", randn({4}, kDouble));
  Generator g = make_generator();
  g.manual_seed((uint64_t(1) << 40) + 5);
  (void)rand({1}, g);
  expect_same("gen_state", g.get_state());
}

TEST(RandomTorch, ModelInitialisation) {
  manual_seed(0);
  nn::Linear lin(784, 10);
  expect_same("linear_w", lin->weight);
  expect_same("linear_b", lin->bias);
  manual_seed(0);
  nn::Conv2d conv(nn::Conv2dOptions(3, 8, 3));
  expect_same("conv_w", conv->weight);
  expect_same("conv_b", conv->bias);
  namespace I = nn::init;
  manual_seed(1);
  Tensor w = empty({30, 20});
  I::kaiming_uniform_(w);
  expect_same("kaiming_uniform", w);
  I::kaiming_normal_(w, 0, kFanOut, kReLU);
  expect_same("kaiming_normal", w);
  I::xavier_uniform_(w, 1.5);
  expect_same("xavier_uniform", w);
  I::xavier_normal_(w);
  expect_same("xavier_normal", w);
  I::uniform_(w, -0.2, 0.1);
  expect_same("init_uniform", w);
  I::normal_(w, 0.5, 0.1);
  expect_same("init_normal", w);
  I::sparse_(w, 0.3, 0.02);
  expect_same("sparse", w);
  // The draws are libtorch's; the factorisation (Gram-Schmidt here, Householder there) and
  // erfinv agree to rounding.
  I::orthogonal_(w, 1.3);
  expect_close("orthogonal_tall", w, 1e-5);
  Tensor wt = empty({5, 12});
  I::orthogonal_(wt);
  expect_close("orthogonal_wide", wt, 1e-5);
  I::trunc_normal_(w, 0.1, 0.5, -0.4, 0.8);
  expect_close("trunc_normal", w, 1e-5);
  expect_same("after_init", rand({3}));  // and the stream is where libtorch's is
}

namespace {
void expect_module_params(const std::string& tag, nn::Module& m) {
  for (const auto& item : m.named_parameters()) expect_same(tag + ":" + item.key(), item.value());
}
}  // namespace

TEST(RandomTorch, ModuleDefaultInitialisation) {
  manual_seed(0);
  nn::Embedding embedding(10, 4);
  expect_module_params("embedding", *embedding);
  manual_seed(0);
  nn::LSTM lstm(nn::LSTMOptions(4, 6).num_layers(2));
  expect_module_params("lstm", *lstm);
  manual_seed(0);
  nn::GRU gru(3, 5);
  expect_module_params("gru", *gru);
  manual_seed(0);
  nn::MultiheadAttention mha(8, 2);
  expect_module_params("mha", *mha);
  manual_seed(0);
  nn::Bilinear bilinear(3, 4, 5);
  expect_module_params("bilinear", *bilinear);
  manual_seed(0);
  nn::ConvTranspose2d convt(nn::ConvTranspose2dOptions(4, 3, 2));
  expect_module_params("convt", *convt);
}
