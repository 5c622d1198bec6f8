"""Dropout layers: active in training mode only."""
from .. import functional as F
from .module import Module


def _dropout(name, fn):
    class Dropout(Module):
        def __init__(self, p=0.5, inplace=False):
            super().__init__()
            if p < 0 or p > 1:
                raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
            self.p, self.inplace = p, inplace

        def forward(self, input):
            return fn(input, self.p, self.training, self.inplace)

        def extra_repr(self):
            return f"p={self.p}, inplace={self.inplace}"
    Dropout.__name__ = Dropout.__qualname__ = name
    return Dropout


Dropout = _dropout("Dropout", F.dropout)
Dropout1d = _dropout("Dropout1d", F.dropout1d)
Dropout2d = _dropout("Dropout2d", F.dropout2d)
Dropout3d = _dropout("Dropout3d", F.dropout3d)
AlphaDropout = _dropout("AlphaDropout", F.alpha_dropout)
FeatureAlphaDropout = _dropout("FeatureAlphaDropout", F.feature_alpha_dropout)
