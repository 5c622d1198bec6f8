#pragma once
// Pointwise fusion and C++ code generation (Note [Fusion] in fusion.cpp): the plan a graph runs,
// as a list of steps that are either one node (run through the dispatcher) or one fused kernel.

#include <cstdint>
#include <string>
#include <vector>

#include "compile/attention_slices.h"
#include "compile/graph.h"
#include "compile/head_merge.h"
#include "compile/matmul_epilogue.h"
#include "compile/pool_relu.h"

namespace brasa::compiler {

/// The generated entry point of one fused kernel: `in`/`out` point at the operands' first
/// elements, `sizes` holds the iteration shape (rank dims), `strides` the element strides of
/// every input then every output in it (rank each, 0 where broadcast); `flat` says that every
/// input is contiguous over the whole shape or a single element, as `scalar_inputs` records.
using KernelFn = void (*)(char* const* in, char* const* out, const long long* sizes,
                          const long long* strides, long long flat);

struct Kernel {
  std::string symbol;
  int rank = 1;                     ///< iteration rank (at least 1)
  std::vector<int32_t> inputs;      ///< value ids read
  std::vector<bool> scalar_inputs;  ///< the flat variant reads element 0 of these
  std::vector<int32_t> outputs;     ///< value ids written (fresh contiguous tensors)
  std::vector<ScalarType> output_dtypes;
  /// Per output: its dims from innermost to outermost as eager laid it out (a transposed input
  /// gives a transposed result); empty for row-major.
  std::vector<std::vector<int>> output_orders;
  /// Row kernels (row_fusion.h) and column reductions: per output, 0 when shaped like the
  /// iteration, 1 for one value per row with the last dim kept (size 1), 2 with it dropped; 3 for
  /// one value per column (all but the last dim reduced) with the dims kept, 4 with them dropped.
  std::vector<uint8_t> output_stat;
  bool rows = false;             ///< a row kernel: inputs in `scalar_inputs` are read once per row
  std::vector<std::string> ops;  ///< the fused ops, for logs
  KernelFn fn = nullptr;
};

struct Step {
  int32_t node = -1;        ///< a node of the graph, or
  int32_t kernel = -1;      ///< a kernel of the plan, or
  int32_t matmul = -1;      ///< a matmul with its epilogue (Note [Matmul epilogues])
  int32_t attention = -1;   ///< attention's gradients into slices (AttentionSlices)
  int32_t pool_relu = -1;   ///< a max-pool backward with relu's gradient (PoolRelu)
  int32_t head_merge = -1;  ///< `node`'s part of an attention in merged-head layout (HeadMerge)

  bool operator==(const Step&) const = default;
};

struct Plan {
  std::vector<Step> steps;
  std::vector<Kernel> kernels;
  std::vector<MatmulEpilogue> matmuls;
  std::vector<AttentionSlices> attentions;
  std::vector<PoolRelu> pool_relus;
  std::vector<HeadMerge> head_merges;
  /// Per step, the values dropped after it (Note [Values released after their last use]).
  std::vector<std::vector<int32_t>> releases;
  std::string source;  ///< one translation unit with every kernel ("" when none)
};

/// Groups runs of fusible pointwise nodes, and the reductions over the last dim they feed or
/// follow, into kernels (only when `fuse`) and generates their source; Float mm/addmm nodes with
/// pointwise epilogues become oneDNN matmul steps, attention gradients copied into slices are
/// written there, a max-pool backward and the relu gradient after it run as one scatter, an
/// attention followed by a head merge writes merged heads (all only when `fuse`); every other node
/// stays a step of its own.
Plan plan(const Graph& g, bool fuse);

}  // namespace brasa::compiler
