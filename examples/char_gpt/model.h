#pragma once
// The GPT of char_gpt: token + position embeddings, pre-LayerNorm blocks of causal self-attention
// (through scaled_dot_product_attention) and a GELU MLP, a final LayerNorm and an output layer
// tied to the token embedding. Submodules are called through brasa::nn::utils::call, where tensor
// parallel and fully_shard install their forwards (tests/distributed/tp_worker.cpp); without them
// it is the module's own forward. GPT-2's initialisation: N(0, 0.02) weights, zero biases, and the
// projections into the residual stream N(0, 0.02 / sqrt(2 * layers)). train_torch.py builds the
// same model with the same parameter names.

#include <torch/torch.h>

#include <cmath>
#include <string>
#include <vector>

#include "brasa/nn/utils/forward_override.h"
#include "brasa/utils/checkpoint.h"

struct GptConfig {
  int64_t vocab_size = 0;
  int64_t block_size = 128;
  int64_t layers = 6;
  int64_t heads = 8;
  int64_t dim = 256;
  double dropout = 0.1;
};

struct CausalSelfAttentionImpl : torch::nn::Module {
  explicit CausalSelfAttentionImpl(const GptConfig& c)
      : heads(c.heads),
        dropout(c.dropout),
        qkv(register_module("qkv", torch::nn::Linear(c.dim, 3 * c.dim))),
        proj(register_module("proj", torch::nn::Linear(c.dim, c.dim))),
        resid_drop(register_module("resid_drop", torch::nn::Dropout(c.dropout))) {}
  // The heads come from qkv's output (-1): under tensor parallel each rank holds some of them.
  torch::Tensor forward(const torch::Tensor& x) {
    auto h = brasa::nn::utils::call(qkv, x);
    const int64_t B = h.size(0), T = h.size(1), head_dim = x.size(-1) / heads;
    auto parts = h.view({B, T, 3, -1, head_dim}).permute({2, 0, 3, 1, 4});
    auto y = torch::scaled_dot_product_attention(parts[0], parts[1], parts[2], {},
                                                 is_training() ? dropout : 0.0, /*is_causal=*/true);
    return resid_drop(brasa::nn::utils::call(proj, y.transpose(1, 2).reshape({B, T, -1})));
  }
  int64_t heads;
  double dropout;
  torch::nn::Linear qkv, proj;
  torch::nn::Dropout resid_drop;
};
TORCH_MODULE(CausalSelfAttention);

struct MlpImpl : torch::nn::Module {
  explicit MlpImpl(const GptConfig& c)
      : fc(register_module("fc", torch::nn::Linear(c.dim, 4 * c.dim))),
        proj(register_module("proj", torch::nn::Linear(4 * c.dim, c.dim))),
        drop(register_module("drop", torch::nn::Dropout(c.dropout))) {}
  torch::Tensor forward(const torch::Tensor& x) {
    return drop(
        brasa::nn::utils::call(proj, torch::nn::functional::gelu(brasa::nn::utils::call(fc, x))));
  }
  torch::nn::Linear fc, proj;
  torch::nn::Dropout drop;
};
TORCH_MODULE(Mlp);

struct BlockImpl : torch::nn::Module {
  explicit BlockImpl(const GptConfig& c)
      : ln1(register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dim})))),
        attn(register_module("attn", CausalSelfAttention(c))),
        ln2(register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dim})))),
        mlp(register_module("mlp", Mlp(c))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = x + attn(brasa::nn::utils::call(ln1, x));
    return x + mlp(brasa::nn::utils::call(ln2, x));
  }
  torch::nn::LayerNorm ln1;
  CausalSelfAttention attn;
  torch::nn::LayerNorm ln2;
  Mlp mlp;
};
TORCH_MODULE(Block);

struct GptImpl : torch::nn::Module {
  explicit GptImpl(const GptConfig& c)
      : config(c),
        wte(register_module("wte", torch::nn::Embedding(c.vocab_size, c.dim))),
        wpe(register_module("wpe", torch::nn::Embedding(c.block_size, c.dim))),
        drop(register_module("drop", torch::nn::Dropout(c.dropout))),
        blocks(register_module("blocks", torch::nn::ModuleList())),
        ln_f(register_module("ln_f", torch::nn::LayerNorm(torch::nn::LayerNormOptions({c.dim})))) {
    for (int64_t i = 0; i < c.layers; ++i) blocks->push_back(Block(c));
    torch::NoGradGuard no_grad;
    for (auto& item : named_parameters()) {
      const std::string& name = item.key();
      torch::Tensor& p = item.value();
      const bool residual_proj =
          name.ends_with("attn.proj.weight") || name.ends_with("mlp.proj.weight");
      if (name.ends_with(".bias")) {
        torch::nn::init::zeros_(p);
      } else if (name.starts_with("ln") || name.find(".ln") != std::string::npos) {
        torch::nn::init::ones_(p);
      } else {
        torch::nn::init::normal_(p, 0.0, residual_proj ? 0.02 / std::sqrt(2.0 * c.layers) : 0.02);
      }
    }
  }
  /// Token ids [B, T] (T <= block_size) -> logits [B, T, vocab].
  torch::Tensor forward(const torch::Tensor& idx) {
    const int64_t T = idx.size(1);
    auto x = brasa::nn::utils::call(drop, wte(idx) + wpe(torch::arange(T, torch::kLong)));
    for (const auto& module : *blocks) {
      auto block = module->as<BlockImpl>();
      x = checkpoint_activations && is_training()
              ? brasa::utils::checkpoint(
                    [block](const torch::Tensor& h) { return brasa::nn::utils::call(block, h); }, x)
              : brasa::nn::utils::call(block, x);
    }
    // Tied to the embedding.
    return torch::nn::functional::linear(brasa::nn::utils::call(ln_f, x), wte->weight);
  }
  /// AdamW's two groups, each a copy of `options` with its own weight decay: matrices (linear
  /// and embedding weights) decay by `weight_decay`, biases and LayerNorm weights not at all. A
  /// libtorch group's options replace the optimizer's defaults whole (Python's param_groups only
  /// override the keys they name), so betas and eps must be in `options`, not only in the
  /// defaults.
  std::vector<torch::optim::OptimizerParamGroup> param_groups(
      const torch::optim::AdamWOptions& options, double weight_decay) {
    std::vector<torch::Tensor> decay, no_decay;
    for (auto& p : parameters()) (p.dim() >= 2 ? decay : no_decay).push_back(p);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    for (auto [params, decay_of_group] :
         {std::pair{decay, weight_decay}, std::pair{no_decay, 0.0}}) {
      auto group_options = std::make_unique<torch::optim::AdamWOptions>(options);
      group_options->weight_decay(decay_of_group);
      groups.emplace_back(params, std::move(group_options));
    }
    return groups;
  }

  GptConfig config;
  bool checkpoint_activations = false;
  torch::nn::Embedding wte, wpe;
  torch::nn::Dropout drop;
  torch::nn::ModuleList blocks;
  torch::nn::LayerNorm ln_f;
};
TORCH_MODULE(Gpt);
