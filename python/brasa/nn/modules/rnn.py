"""RNN, LSTM, GRU and their cells: torch's parameters (weight_ih_l0, ..., _reverse), initialisation
and calling conventions, computing with C++'s brasa::lstm / gru / rnn_tanh / rnn_relu (the loop the
C++ modules run)."""
import math

from ... import _C, empty, zeros
from .. import init
from ..parameter import Parameter
from .module import Module

_nn = _C._nn
_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _is_packed(input):
    from ..utils.rnn import PackedSequence
    return isinstance(input, PackedSequence)


class RNNBase(Module):
    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False,
                 dropout=0.0, bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        if not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if proj_size:
            raise NotImplementedError("brasa's LSTM has no proj_size")
        if hidden_size <= 0 or num_layers <= 0:
            raise ValueError("hidden_size and num_layers must be positive")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, 0
        dirs = 2 if bidirectional else 1
        gate = _GATES[mode] * hidden_size
        self._flat_weights_names = []
        for layer in range(num_layers):
            for d in range(dirs):
                in_size = input_size if layer == 0 else hidden_size * dirs
                suffix = "_reverse" if d == 1 else ""
                shapes = [("weight_ih", (gate, in_size)), ("weight_hh", (gate, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate,)), ("bias_hh", (gate,))]
                for name, shape in shapes:
                    full = f"{name}_l{layer}{suffix}"
                    setattr(self, full, Parameter(empty(*shape, dtype=dtype)))
                    self._flat_weights_names.append(full)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self):
        per = 4 if self.bias else 2
        w = self._flat_weights
        return [w[i:i + per] for i in range(0, len(w), per)]

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size)
        for w in self.parameters():
            init.uniform_(w, -stdv, stdv)

    def flatten_parameters(self):
        pass

    def _prepare(self, input, hx, lstm):
        batched = input.dim() == 3
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got "
                             f"{input.dim()}D tensor instead")
        if not batched:
            input = input.unsqueeze(0 if self.batch_first else 1)
        batch = input.shape[0 if self.batch_first else 1]
        dirs = 2 if self.bidirectional else 1
        if hx is None:
            h = zeros(self.num_layers * dirs, batch, self.hidden_size, dtype=input.dtype)
            hx = [h, h] if lstm else h
        elif not batched:
            hx = [t.unsqueeze(1) for t in hx] if lstm else hx.unsqueeze(1)
        return input, hx, batched

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if not self.bias:
            s += ", bias=False"
        if self.batch_first:
            s += ", batch_first=True"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional:
            s += ", bidirectional=True"
        return s

    def _run(self, fn, input, hx):
        return fn(input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout,
                  self.training, self.bidirectional, self.batch_first)

    def _run_packed(self, fn, packed, states, n_states):
        """The layer over a PackedSequence: the sequences of each length run together (exactly,
        with no padding inside a run), their outputs and final states are put back in batch
        order, and the output is packed like the input. `states` (or None) are in the batch's
        original order, as torch takes them."""
        from ... import cat, int64, tensor
        from ..utils.rnn import PackedSequence, pad_packed_sequence
        padded, lengths = pad_packed_sequence(packed)
        steps, batch = padded.shape[0], padded.shape[1]
        if packed.data.dim() != 2 or packed.data.shape[1] != self.input_size:
            raise ValueError(f"{type(self).__name__}: expected packed data [sum(lengths), "
                             f"{self.input_size}], got {list(packed.data.shape)}")
        if states is None:
            h = zeros(self.num_layers * (2 if self.bidirectional else 1), batch,
                      self.hidden_size, dtype=padded.dtype)
            states = [h] * n_states
        groups = {}
        for i, n in enumerate(lengths.tolist()):
            groups.setdefault(n, []).append(i)
        outs, finals, order = [], [[] for _ in range(n_states)], []
        for n, members in groups.items():
            index = tensor(members, dtype=int64)
            x = padded[:n].index_select(1, index)
            hx = [s.index_select(1, index) for s in states]
            result = fn(x, hx if n_states == 2 else hx[0], self._flat_weights, self.bias,
                        self.num_layers, self.dropout, self.training, self.bidirectional, False)
            out = result[0]
            if n < steps:
                out = cat([out, zeros(steps - n, out.shape[1], out.shape[2], dtype=out.dtype)])
            outs.append(out)
            for k in range(n_states):
                finals[k].append(result[1 + k])
            order += members
        back = _nn._invert_permutation(tensor(order, dtype=int64))
        out = cat(outs, 1).index_select(1, back)
        states = [cat(f, 1).index_select(1, back) for f in finals]
        sorted_idx = (packed.sorted_indices.tolist() if packed.sorted_indices is not None
                      else list(range(batch)))
        rows = [t * batch + sorted_idx[j]
                for t, size in enumerate(packed.batch_sizes.tolist()) for j in range(size)]
        data = out.reshape(steps * batch, out.shape[2]).index_select(0, tensor(rows, dtype=int64))
        return PackedSequence(data, packed.batch_sizes, packed.sorted_indices,
                              packed.unsorted_indices), states


class RNN(RNNBase):
    def __init__(self, *args, nonlinearity="tanh", **kwargs):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        super().__init__("RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        fn = _nn.rnn_tanh if self.nonlinearity == "tanh" else _nn.rnn_relu
        if _is_packed(input):
            out, states = self._run_packed(fn, input, None if hx is None else [hx], 1)
            return out, states[0]
        input, hx, batched = self._prepare(input, hx, False)
        out, h = self._run(fn, input, hx)
        if not batched:
            out, h = out.squeeze(0 if self.batch_first else 1), h.squeeze(1)
        return out, h



class LSTM(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input, hx=None):
        if _is_packed(input):
            out, (h, c) = self._run_packed(_nn.lstm, input, None if hx is None else list(hx), 2)
            return out, (h, c)
        input, hx, batched = self._prepare(input, hx, True)
        out, h, c = self._run(_nn.lstm, input, list(hx))
        if not batched:
            out, h, c = out.squeeze(0 if self.batch_first else 1), h.squeeze(1), c.squeeze(1)
        return out, (h, c)


class GRU(RNNBase):
    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        if _is_packed(input):
            out, states = self._run_packed(_nn.gru, input, None if hx is None else [hx], 1)
            return out, states[0]
        input, hx, batched = self._prepare(input, hx, False)
        out, h = self._run(_nn.gru, input, hx)
        if not batched:
            out, h = out.squeeze(0 if self.batch_first else 1), h.squeeze(1)
        return out, h


class RNNCellBase(Module):
    _gates = 1

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        gate = self._gates * hidden_size
        self.weight_ih = Parameter(empty(gate, input_size, dtype=dtype))
        self.weight_hh = Parameter(empty(gate, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(gate, dtype=dtype))
            self.bias_hh = Parameter(empty(gate, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    reset_parameters = RNNBase.reset_parameters

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            s += ", bias=False"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def _hx(self, input, hx):
        batched = input.dim() == 2
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got "
                             f"{input.dim()}D instead")
        if not batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = zeros(input.shape[0], self.hidden_size, dtype=input.dtype)
        elif not batched:
            hx = hx.unsqueeze(0) if not isinstance(hx, tuple) else tuple(t.unsqueeze(0) for t in hx)
        return input, hx, batched


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None,
                 dtype=None):
        super().__init__(input_size, hidden_size, bias, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, batched = self._hx(input, hx)
        fn = _nn.rnn_tanh_cell if self.nonlinearity == "tanh" else _nn.rnn_relu_cell
        h = fn(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return h if batched else h.squeeze(0)


class GRUCell(RNNCellBase):
    _gates = 3

    def forward(self, input, hx=None):
        input, hx, batched = self._hx(input, hx)
        h = _nn.gru_cell(input, hx, self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    _gates = 4

    def forward(self, input, hx=None):
        input, hx, batched = self._hx(input, hx)
        if not isinstance(hx, tuple):
            hx = (hx, hx)
        h, c = _nn.lstm_cell(input, list(hx), self.weight_ih, self.weight_hh, self.bias_ih,
                             self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))
