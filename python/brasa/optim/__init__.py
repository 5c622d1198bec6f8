"""brasa.optim: torch.optim's optimizers (param groups, state, state_dict) stepping with the
registry's fused optimizer ops, and lr_scheduler."""
from . import lr_scheduler  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .sgd import SGD  # noqa: F401
