// examples/char_gpt's recipe against train_torch.py's (the validation-loss comparison of issue 17
// rests on them being the same): the initialisation has the same per-parameter statistics, and with
// dropout 0, the same initial weights (each parameter filled by name) and the same fixed batches,
// steps of AdamW with the two weight-decay groups, the warm-up + cosine schedule and gradient
// clipping give the same losses and gradient norms in brasa and in PyTorch 1.13 (in float64).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "char_gpt/model.h"
#include "char_gpt/schedule.h"
#include "support/torch_oracle.h"

namespace {

constexpr int64_t kVocab = 50, kBlock = 16, kBatch = 4, kSteps = 8;

std::string python_body() {
  return std::string("import sys\nsys.path.insert(0, '") + BRASA_CHAR_GPT_DIR + "')\n" + R"PY(
import train_torch as tt
import torch.nn.functional as F
from types import SimpleNamespace
c = SimpleNamespace(block_size=16, layers=2, heads=4, dim=32, dropout=0.0, lr=1e-2,
                    weight_decay=0.1, grad_clip=0.5, warmup=2, steps=8)
torch.manual_seed(0)
m = tt.Gpt(c, 50)
for n, p in m.named_parameters():
    print('std:' + n, p.std().item() if p.numel() > 1 else 0.0, p.mean().item())
fill(m)
decay = [q for q in m.parameters() if q.dim() >= 2]
no_decay = [q for q in m.parameters() if q.dim() < 2]
opt = torch.optim.AdamW([{"params": decay, "weight_decay": c.weight_decay},
                         {"params": no_decay, "weight_decay": 0.0}], lr=c.lr, betas=(0.9, 0.95))
ids = torch.tensor([(j * 7 + j // 5) % 50 for j in range(4 * 17 * 8)])
m.train()
for step in range(c.steps):
    for g in opt.param_groups:
        g["lr"] = tt.lr_at(step, c)
    w = ids[step * 68:(step + 1) * 68].view(4, 17)
    logits = m(w[:, :16])
    loss = F.cross_entropy(logits.reshape(-1, 50), w[:, 1:].reshape(-1))
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(m.parameters(), c.grad_clip)
    opt.step()
    opt.zero_grad()
    print('loss%d' % step, loss.item())
    print('norm%d' % step, float(norm))
)PY";
}

TEST(CharGptRecipe, InitAndStepsMatchTrainTorchPy) {
  const auto& ref = brasa::testing_oracle::run_python_shared(python_body());
  torch::manual_seed(0);
  Gpt model(GptConfig{kVocab, kBlock, /*layers=*/2, /*heads=*/4, /*dim=*/32, /*dropout=*/0.0});
  for (const auto& item : model->named_parameters()) {
    SCOPED_TRACE(item.key());
    const auto& want = ref.at("std:" + item.key());
    const torch::Tensor& p = item.value();
    const double std = p.numel() > 1 ? p.std().item<double>() : 0.0;
    // Different generators draw different values: the same distribution within 5 standard
    // errors of a sample of numel values.
    const double n = double(p.numel());
    EXPECT_NEAR(std, want.at(0), 5 * want.at(0) / std::sqrt(2 * n) + 1e-12);
    EXPECT_NEAR(p.mean().item<double>(), want.at(1), 10 * want.at(0) / std::sqrt(n) + 1e-12);
  }
  // Float64 (the Python side's default dtype here) so that float rounding, which Adam's first
  // steps amplify for gradient entries near zero, does not hide a difference of recipe.
  model->to(torch::kDouble);
  brasa::testing_oracle::fill_params(*model);
  const auto adamw = torch::optim::AdamWOptions(1e-2).betas({0.9, 0.95});
  torch::optim::AdamW optimizer(model->param_groups(adamw, 0.1), adamw);
  const CosineSchedule schedule{1e-2, /*warmup=*/2, kSteps};
  std::vector<int64_t> ids(size_t(kBatch * (kBlock + 1) * kSteps));
  for (size_t j = 0; j < ids.size(); ++j) ids[j] = int64_t((j * 7 + j / 5) % kVocab);
  const torch::Tensor data = torch::tensor(ids, torch::kLong);
  model->train();
  for (int64_t step = 0; step < kSteps; ++step) {
    for (auto& group : optimizer.param_groups()) group.options().set_lr(schedule(step));
    const int64_t span = kBatch * (kBlock + 1);
    const torch::Tensor w =
        data.slice(0, step * span, (step + 1) * span).view({kBatch, kBlock + 1});
    const torch::Tensor logits = model->forward(w.slice(1, 0, kBlock));
    const torch::Tensor loss = torch::nn::functional::cross_entropy(
        logits.reshape({-1, kVocab}), w.slice(1, 1, kBlock + 1).reshape({-1}));
    loss.backward();
    const double norm = torch::nn::utils::clip_grad_norm_(model->parameters(), 0.5);
    optimizer.step();
    optimizer.zero_grad();
    SCOPED_TRACE(step);
    brasa::testing_oracle::expect_close("loss" + std::to_string(step), loss, ref, 1e-9);
    EXPECT_NEAR(norm, ref.at("norm" + std::to_string(step)).at(0), 1e-9 * (1 + norm));
  }
}

}  // namespace
