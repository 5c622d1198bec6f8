#pragma once
// Pointwise epilogues of a Float mm/addmm run as oneDNN post-ops of one matmul primitive, and a
// convolution's relu as a post-op of its convolution primitive (Notes [Matmul epilogues], [Conv
// epilogues] in matmul_epilogue.cpp).

#include <cstdint>
#include <string>
#include <vector>

#include "compile/graph.h"

namespace brasa::compiler {

/// One op applied to the product, in [M, N] coordinates.
struct EpilogueOp {
  enum Kind : uint8_t {
    Bias,    ///< + a [N] operand (addmm's self, or an add of a vector along the last dim)
    Full,    ///< + an operand of the result's shape (a residual)
    Scalar,  ///< + or * a single element: an operand, or a literal (`alpha`; div by 2^k: * 2^-k)
    Relu,
    View,  ///< a view of the leading dims (run through the dispatcher on the result)
  };
  Kind kind = Relu;
  bool multiply = false;  ///< Scalar: * rather than +
  float alpha = 1;        ///< Scalar of a literal: its value as Float
  int32_t operand = -1;   ///< Bias, Full, Scalar: the value read (-1: a literal)
  int32_t node = -1;      ///< the graph node it stands for (-1: addmm's own self)
};

struct MatmulEpilogue {
  int32_t mm = -1;                 ///< the addmm node (or the convolution node when `conv`)
  bool conv = false;               ///< a convolution with a relu (Note [Conv epilogues])
  std::vector<EpilogueOp> ops;     ///< in order
  int32_t output = -1;             ///< the value the last op produces
  int32_t last_node = -1;          ///< where the step runs (the last node it stands for)
  std::vector<int32_t> nodes;      ///< every node it stands for (the mm first), in order
  std::vector<std::string> names;  ///< for logs
};

/// The mm/addmm nodes of `g` whose result goes, through single-use values, into at least one
/// epilogue op; no node between the mm and the step's last node writes anything. Also the Float
/// convolutions whose result only a relu reads (Note [Conv epilogues]).
std::vector<MatmulEpilogue> find_matmul_epilogues(const Graph& g);

/// Runs `e` into env[e.output]; when the runtime operands do not suit oneDNN, runs its nodes
/// through the dispatcher instead (same results as eager).
void run_matmul_epilogue(const Graph& g, const MatmulEpilogue& e, std::vector<Tensor>& env);

}  // namespace brasa::compiler
