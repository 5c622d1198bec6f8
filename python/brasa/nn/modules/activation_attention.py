"""MultiheadAttention (torch 1.13's parameters, initialisation order and masks), computed from
nn.functional's linear and the registry's bmm/softmax ops as torch 1.13 does on the CPU."""
import math

from ... import bmm, cat, empty, zeros
from .. import functional as F, init
from ..parameter import Parameter
from .linear import Linear
from .module import Module


class NonDynamicallyQuantizableLinear(Linear):
    """torch's name for MultiheadAttention.out_proj (a Linear)."""


def _float_mask(mask, dtype):
    """A boolean mask (True = not allowed) as an additive one (-inf); float masks as they are."""
    if mask is None or mask.is_floating_point():
        return mask
    return zeros(*mask.shape, dtype=dtype).masked_fill_(mask, float("-inf"))


def _heads(x, rows, head_dim, static, name):
    """[S, N, E] -> [N * H, S, E / H], or the given static keys / values of that shape."""
    if static is None:
        return x.contiguous().view(x.shape[0], rows, head_dim).transpose(0, 1)
    if static.dim() != 3 or static.shape[0] != rows or static.shape[2] != head_dim:
        raise RuntimeError(f"multi_head_attention_forward: expected {name} of shape "
                           f"[{rows}, S, {head_dim}], got {list(static.shape)}")
    return static


def multi_head_attention_forward(query, key, value, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight,
                                 out_proj_bias, training=True, key_padding_mask=None,
                                 need_weights=True, attn_mask=None, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None,
                                 average_attn_weights=True, static_k=None, static_v=None):
    """query [L, N, E], key/value [S, N, E*] -> (output [L, N, E], weights [N, L, S] or None);
    unbatched [L, E] inputs give unbatched results. static_k / static_v [N * H, S, E / H] replace
    the projected keys / values."""
    batched = query.dim() == 3
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed = query.shape
    head_dim = embed // num_heads
    if head_dim * num_heads != embed:
        raise ValueError(f"embed_dim {embed} not divisible by num_heads {num_heads}")
    b = [None] * 3 if in_proj_bias is None else [in_proj_bias[i * embed:(i + 1) * embed]
                                                 for i in range(3)]
    if q_proj_weight is None:
        w = [in_proj_weight[i * embed:(i + 1) * embed] for i in range(3)]
    else:
        w = [q_proj_weight, k_proj_weight, v_proj_weight]
    q, k, v = F.linear(query, w[0], b[0]), F.linear(key, w[1], b[1]), F.linear(value, w[2], b[2])
    attn_mask = _float_mask(attn_mask, q.dtype)
    if attn_mask is not None and attn_mask.dim() == 2:
        attn_mask = attn_mask.unsqueeze(0)
    if bias_k is not None:
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    q = q.contiguous().view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, bsz * num_heads, head_dim, static_k, "static_k")
    v = _heads(v, bsz * num_heads, head_dim, static_v, "static_v")
    if add_zero_attn:
        k = cat([k, zeros(bsz * num_heads, 1, head_dim, dtype=k.dtype)], dim=1)
        v = cat([v, zeros(bsz * num_heads, 1, head_dim, dtype=v.dtype)], dim=1)
        if attn_mask is not None:
            attn_mask = F.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = F.pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]
    if key_padding_mask is not None:
        kpm = _float_mask(key_padding_mask, q.dtype).view(bsz, 1, 1, src_len).expand(
            bsz, num_heads, 1, src_len).reshape(bsz * num_heads, 1, src_len)
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    scores = bmm(q * (1.0 / math.sqrt(head_dim)), k.transpose(1, 2))
    if attn_mask is not None:
        scores = scores + attn_mask
    weights = F.softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = F.dropout(weights, p=dropout_p, training=training)
    out = bmm(weights, v)
    out = out.transpose(0, 1).contiguous().view(tgt_len * bsz, embed)
    out = F.linear(out, out_proj_weight, out_proj_bias).view(tgt_len, bsz, embed)
    if need_weights:
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(1)
        if not batched:
            out, weights = out.squeeze(1), weights.squeeze(0)
        return out, weights
    return (out if batched else out.squeeze(1)), None


class MultiheadAttention(Module):
    def __init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None,
                 dtype=None):
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(empty(3 * embed_dim, embed_dim, dtype=dtype))
            self.register_parameter("q_proj_weight", None)
            self.register_parameter("k_proj_weight", None)
            self.register_parameter("v_proj_weight", None)
        else:
            self.q_proj_weight = Parameter(empty(embed_dim, embed_dim, dtype=dtype))
            self.k_proj_weight = Parameter(empty(embed_dim, self.kdim, dtype=dtype))
            self.v_proj_weight = Parameter(empty(embed_dim, self.vdim, dtype=dtype))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        dtype=dtype)
        if add_bias_kv:
            self.bias_k = Parameter(empty(1, 1, embed_dim, dtype=dtype))
            self.bias_v = Parameter(empty(1, 1, embed_dim, dtype=dtype))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self):
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            init.xavier_uniform_(self.q_proj_weight)
            init.xavier_uniform_(self.k_proj_weight)
            init.xavier_uniform_(self.v_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True,
                attn_mask=None, average_attn_weights=True):
        if self.batch_first and query.dim() == 3:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        out, weights = multi_head_attention_forward(
            query, key, value, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.weight,
            self.out_proj.bias, training=self.training, key_padding_mask=key_padding_mask,
            need_weights=need_weights, attn_mask=attn_mask,
            q_proj_weight=self.q_proj_weight, k_proj_weight=self.k_proj_weight,
            v_proj_weight=self.v_proj_weight, average_attn_weights=average_attn_weights)
        if self.batch_first and query.dim() == 3:
            out = out.transpose(0, 1)
        return out, weights
