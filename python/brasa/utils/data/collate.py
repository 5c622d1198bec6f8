"""default_collate / default_convert: a list of samples into a batch (torch's rules: tensors are
stacked, numbers and NumPy arrays become tensors, sequences and mappings are collated field by
field)."""
import collections

from ... import _C

_np_kinds = "biuf?"


def default_convert(data):
    import numpy as np
    from ... import as_tensor
    if isinstance(data, _C.Tensor):
        return data
    if isinstance(data, np.ndarray) and data.dtype.kind in _np_kinds:
        return as_tensor(data)
    if isinstance(data, np.generic) and data.dtype.kind in _np_kinds:
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({k: default_convert(v) for k, v in data.items()})
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return [default_convert(d) for d in data]
    return data


def default_collate(batch):
    import numpy as np
    from ... import as_tensor, float64, stack, tensor
    elem = batch[0]
    if isinstance(elem, _C.Tensor):
        return stack(list(batch), 0)
    if isinstance(elem, np.ndarray) and elem.dtype.kind in _np_kinds:
        return stack([as_tensor(b) for b in batch], 0)
    if isinstance(elem, np.generic) and elem.dtype.kind in _np_kinds:
        return as_tensor(np.array(batch))
    if isinstance(elem, bool):
        return tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return type(elem)({k: default_collate([d[k] for d in batch]) for k in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(s) for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        n = len(next(it))
        if not all(len(e) == n for e in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        columns = [default_collate(list(s)) for s in zip(*batch)]
        return columns if isinstance(elem, (list, tuple)) else type(elem)(columns)
    raise TypeError("default_collate: batch must contain tensors, numpy arrays, numbers, dicts "
                    f"or lists; found {type(elem)}")
