"""brasa.utils.tensorboard.SummaryWriter: torch.utils.tensorboard's writer over brasa's C++ one
(brasa/utils/tensorboard.h: TensorBoard event files, no TensorFlow or tensorboard package)."""
import os
import socket
from datetime import datetime

from .. import _C


class SummaryWriter:
    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10, flush_secs=120,
                 filename_suffix=""):
        if log_dir is None:
            stamp = datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", f"{stamp}_{socket.gethostname()}{comment}")
        self._writer = _C._SummaryWriter(str(log_dir), float(flush_secs))

    @property
    def log_dir(self):
        return self._writer.log_dir()

    def get_logdir(self):
        return self.log_dir

    @staticmethod
    def _step(global_step):
        return 0 if global_step is None else int(global_step)

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False):
        value = scalar_value.item() if hasattr(scalar_value, "item") else scalar_value
        self._writer.add_scalar(tag, float(value), self._step(global_step))

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None):
        values = {k: float(v.item() if hasattr(v, "item") else v)
                  for k, v in tag_scalar_dict.items()}
        self._writer.add_scalars(main_tag, values, self._step(global_step))

    def add_histogram(self, tag, values, global_step=None, bins="tensorflow", walltime=None,
                      max_bins=None):
        import brasa
        if not isinstance(values, brasa.Tensor):
            values = brasa.as_tensor(values)
        self._writer.add_histogram(tag, values, self._step(global_step))

    def add_text(self, tag, text_string, global_step=None, walltime=None):
        self._writer.add_text(tag, text_string, self._step(global_step))

    def add_hparams(self, hparam_dict, metric_dict, hparam_domain_discrete=None, run_name=None):
        self._writer.add_hparams(dict(hparam_dict), {k: float(v) for k, v in metric_dict.items()})

    def flush(self):
        self._writer.flush()

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

