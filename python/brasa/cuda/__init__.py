"""brasa.cuda: what torch.cuda answers on a machine without CUDA, so that the usual
`device = torch.device("cuda" if torch.cuda.is_available() else "cpu")` runs unchanged. brasa's
Python package has no CUDA backend: calls that need a device raise RuntimeError, as a CPU-only
torch 1.13 does ("Torch not compiled with CUDA enabled")."""
from . import amp  # noqa: F401


def _no_cuda(what):
    raise RuntimeError(f"brasa.cuda.{what}: brasa was not built with CUDA (no CUDA device); "
                       "use the CPU, e.g. brasa.device('cpu')")


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def is_bf16_supported():
    return False


def manual_seed(seed):
    """Seeds the CUDA generators: there are none, so nothing happens (as in torch without CUDA)."""


def manual_seed_all(seed):
    """See manual_seed."""


def seed():
    pass


def seed_all():
    pass


def empty_cache():
    """Frees cached CUDA memory: there is none."""


def synchronize(device=None):
    _no_cuda("synchronize")


def current_device():
    _no_cuda("current_device")


def set_device(device):
    _no_cuda("set_device")


def get_device_name(device=None):
    _no_cuda("get_device_name")


def get_device_properties(device):
    _no_cuda("get_device_properties")


def memory_allocated(device=None):
    _no_cuda("memory_allocated")


def max_memory_allocated(device=None):
    _no_cuda("max_memory_allocated")


def reset_peak_memory_stats(device=None):
    _no_cuda("reset_peak_memory_stats")
