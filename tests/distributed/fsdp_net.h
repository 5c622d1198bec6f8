#pragma once
// The model of the FSDP tests (fsdp_worker): H = 7 features, so shards are uneven on 2 and 4
// ranks and the 3-row tensors leave rank 3 of 4 an empty shard; the input projection's weight is
// tied to the output; every block has a buffer and a frozen parameter.

#include <functional>
#include <string>
#include <vector>

#include "brasa/brasa.h"

namespace fsdp_test {
using namespace brasa;

constexpr int64_t kIn = 8, kHidden = 7;

struct BlockImpl : nn::Module {
  BlockImpl() : fc1(kHidden, kHidden), fc2(kHidden, 3), fc3(3, kHidden) {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
    register_module("fc3", fc3);
    gain = register_buffer("gain", linspace(0.5, 1.5, kHidden));
    offset = register_parameter("offset", linspace(-0.1, 0.1, kHidden), /*requires_grad=*/false);
  }
  Tensor forward(const Tensor& x) {
    Tensor h = tanh(fc1->forward(x) * gain.to(x.scalar_type()));
    return x + fc3->forward(tanh(fc2->forward(h))) + offset;
  }
  nn::Linear fc1, fc2, fc3;
  Tensor gain, offset;
};
BRASA_MODULE(Block);

struct NetImpl : nn::Module {
  NetImpl() : inp(kIn, kHidden) {
    register_module("inp", inp);
    for (int i = 0; i < 2; ++i)
      blocks.push_back(register_module("block" + std::to_string(i), Block()));
    head_bias = register_parameter("head_bias", zeros({kIn}));
    for (auto& b : blocks) calls.push_back([b](const Tensor& x) mutable { return b->forward(x); });
  }
  Tensor forward(const Tensor& x) {
    Tensor h = inp->forward(x);
    for (auto& call : calls) h = call(h);
    return matmul(h, inp->weight) + head_bias;  // the input projection's weight, tied
  }
  nn::Linear inp;
  std::vector<Block> blocks;
  Tensor head_bias;
  std::vector<std::function<Tensor(const Tensor&)>> calls;  // FSDP replaces these
};
BRASA_MODULE(Net);

}  // namespace fsdp_test
