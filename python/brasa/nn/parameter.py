"""brasa.nn.Parameter: a Tensor subclass that Module.__setattr__ registers as a parameter."""
from .. import _C


class Parameter(_C.Tensor):
    """A leaf tensor sharing `data`'s memory, requiring grad by default; assigning one to a Module
    attribute registers it (torch.nn.Parameter)."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from .. import empty
            data = empty(0)
        return _C.Tensor._make_subclass(cls, data, requires_grad)

    def __init__(self, data=None, requires_grad=True):
        pass

    def __repr__(self):
        return "Parameter containing:\n" + _C.Tensor.__repr__(self)

    __str__ = __repr__

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.data.clone(), self.requires_grad)
        return memo[id(self)]

    def __reduce_ex__(self, protocol):
        return (_rebuild_parameter, (self.data.clone(), self.requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)
