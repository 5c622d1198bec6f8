#pragma once
// The kernel interface of scaled_dot_product_attention (blockwise, flash-attention style).
//
// Note [Blockwise attention]
// Queries are cut into tiles of kQueryTile rows and keys into tiles of kKeyTile rows. A query tile
// walks the key tiles keeping, per row, the running max m and running sum l of exp(s - m) and an
// unnormalised output that is rescaled by exp(m_old - m_new) whenever the max grows (online
// softmax). Extra memory is one score tile and one output tile per thread, never an L x S matrix.
// The forward also returns logsumexp(s) per query row (m + log l) so the backward recomputes the
// probabilities tile by tile. With at least one batch element per thread, one pass per batch
// element visits each (query tile, key tile) pair once and accumulates grad_v, grad_k and grad_q
// (the whole sequence's grad_q rows in a buffer); with fewer, one pass over (batch, key tile) gives
// grad_k and grad_v and a second over (batch, query tile) gives grad_q, recomputing each tile. Both
// add the same products in the same order and use no atomics, so the results do not depend on the
// thread count.
// Causal masks are top-left aligned (key j is kept for query i when j <= i); key tiles that are
// wholly masked are skipped, and on a tile the diagonal crosses the products skip the masked part
// by blocks of rows (Note [Causal tiles] in attention_kernels.cpp). The scale multiplies the
// transposed key tile (scores) and the score gradient (grad_q, grad_k), so query, key, value and
// grad_out rows are read where they lie, without scaled copies.
// Dropout element (n, i, j) keeps with probability 1 - p by Philox block
// offset + ((n * L + i) * S + j) / 4, lane ((n * L + i) * S + j) % 4, so the backward replays it.
#include <cstdint>

#include "backends/cpu/kernels/random_kernels.h"
#include "backends/cpu/stub.h"
#include "brasa/core/dtype.h"

namespace brasa::ops {

constexpr int64_t kQueryTile = 64;
constexpr int64_t kKeyTile = 64;

/// Geometry of a batched attention problem. q: [N, L, E], k: [N, S, E], v: [N, S, Ev], mask
/// (additive, of the compute dtype): [N, L, S]. Batch n starts at element offsets q_off[n] etc.;
/// the last dim of q, k, v has stride 1, rows have strides q_row, k_row, v_row.
struct AttentionGeometry {
  int64_t batch, L, S, E, Ev;
  const int64_t *q_off, *k_off, *v_off, *mask_off;  // mask_off null: no mask
  int64_t q_row, k_row, v_row, mask_row, mask_col;
  const int64_t* go_off;  // grad_out (backward only)
  int64_t go_row;
  // out (the forward writes it, the backward reads it; the BFloat16 kernels: contiguous): batch
  // n at o_off[n], row stride o_row, unit last stride (Note [Attention output in merged heads]).
  const int64_t* o_off;
  int64_t o_row;
  // The gradients (backward only; the BFloat16 kernels: contiguous): batch n of grad_q at
  // gq_off[n], row stride gq_row, unit last stride (Note [Attention gradients into slices]).
  const int64_t *gq_off, *gk_off, *gv_off;
  int64_t gq_row, gk_row, gv_row;
  bool causal;
  double scale;
  double dropout_p;
  PhiloxRange rng;
};

/// out: [N, L, Ev] at the geometry's o_off, o_row; lse: contiguous [N, L]; all of dtype dt (Float
/// or Double).
using AttentionForwardKernel = void (*)(ScalarType dt, const AttentionGeometry& g, const void* q,
                                        const void* k, const void* v, const void* mask, void* out,
                                        void* lse);
/// out: [N, L, Ev] at o_off, o_row; grad_out: [N, L, Ev] with batch n at go_off[n], row stride
/// go_row and unit last stride (the BFloat16 kernels: contiguous); lse [N, L]; writes grad_q [N, L,
/// E], grad_k [N, S, E], grad_v [N, S, Ev] at the geometry's gradient offsets, every element.
using AttentionBackwardKernel = void (*)(ScalarType dt, const AttentionGeometry& g, const void* q,
                                         const void* k, const void* v, const void* mask,
                                         const void* out, const void* grad_out, const void* lse,
                                         void* grad_q, void* grad_k, void* grad_v);

BRASA_DECLARE_STUB(attention_forward_stub, AttentionForwardKernel);
BRASA_DECLARE_STUB(attention_backward_stub, AttentionBackwardKernel);

// Note [BFloat16 attention]
// On CPUs with AVX-512 BF16, BFloat16 query, key and value stay BFloat16: the tile products run
// on vdpbf16ps (bf16 pairs multiplied, float accumulation), and the scores, the online softmax,
// logsumexp, dropout and the score gradient are float, as are the accumulators of out, grad_q,
// grad_k and grad_v, which are rounded to BFloat16 once at the end. The operands are repacked per
// tile into the instruction's pair layout (attention_bf16_kernels.cpp). Products of a float tile
// (probabilities, score gradients) round it to BFloat16 first, as a BFloat16 matmul of the
// composite formula does. Elsewhere BFloat16 is converted to float and runs the float kernel.
// The backward is the one-pass form, parallel over batch elements.
/// Same layouts as above with q, k, v, out (forward: written), grad_out and the gradients
/// BFloat16; mask (additive) and lse Float. Registered only by the AVX-512 build: call them only
/// when attention_bf16_native().
BRASA_DECLARE_STUB(attention_bf16_forward_stub, AttentionForwardKernel);
BRASA_DECLARE_STUB(attention_bf16_backward_stub, AttentionBackwardKernel);
/// Whether this process runs BFloat16 attention natively (the AVX-512 capability is in use, the
/// CPU has AVX-512 BF16 and the kernels are registered).
bool attention_bf16_native();

}  // namespace brasa::ops
