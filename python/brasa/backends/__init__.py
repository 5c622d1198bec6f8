"""brasa.backends: torch.backends' switches that scripts set (cudnn.benchmark, cudnn.deterministic,
cuda.matmul.allow_tf32, ...). brasa's CPU kernels have no such choices to make, so the flags are
plain attributes that keep what is set; the is_available() queries answer for this build (no cuDNN,
no MPS, oneDNN for mkldnn, OpenMP)."""
import types as _types


class _Flags(_types.ModuleType):
    def __init__(self, name, doc, available, **flags):
        super().__init__(name, doc)
        self.__dict__.update(flags)
        self.is_available = lambda: available


cudnn = _Flags("brasa.backends.cudnn", "cuDNN switches (brasa has no cuDNN on the CPU).", False,
               enabled=True, benchmark=False, deterministic=False, allow_tf32=True,
               version=lambda: None)
mps = _Flags("brasa.backends.mps", "Apple MPS (not in brasa).", False, is_built=lambda: False)
mkldnn = _Flags("brasa.backends.mkldnn", "oneDNN, which brasa's CPU GEMM and conv use.", True,
                enabled=True)
openmp = _Flags("brasa.backends.openmp", "OpenMP, which brasa's CPU kernels use.", True)
cuda = _Flags("brasa.backends.cuda", "CUDA switches (no CUDA in brasa's Python package).", False,
              is_built=lambda: False,
              matmul=_types.SimpleNamespace(allow_tf32=False,
                                            allow_fp16_reduced_precision_reduction=True))
