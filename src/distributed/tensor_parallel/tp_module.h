#pragma once
// One module parallelize_module took: what it is, its style, its TP group, and the forward that
// replaces its own (tp_forward.cpp).

#include <memory>
#include <vector>

#include "brasa/distributed/tensor_parallel.h"
#include "distributed/tensor_parallel/tp_comm.h"

namespace brasa::distributed::detail::tp {

enum class ModuleType : uint8_t { Linear, Embedding, LayerNorm, Dropout };

struct TPModule {
  std::weak_ptr<nn::Module> module;
  std::string name;  // in the plan's root module, for messages
  ModuleType type;
  ParallelStyle style;
  Group group;
  int64_t ranks = 1, rank = 0;
  int64_t row_offset = 0, rows = 0;  // Rowwise Embedding: this rank's vocabulary rows
  // The layouts of the module's own parameters; the registry holds them weakly (Note [Layouts
  // live with their module] in tp_plan.cpp).
  std::vector<std::shared_ptr<const TensorParallelLayout>> layouts;
};

/// The module's forward under its style.
Tensor forward(const TPModule& m, const Tensor& input);

}  // namespace brasa::distributed::detail::tp
