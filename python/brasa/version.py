"""brasa.version: torch.version's fields for this build (no CUDA, no ROCm)."""
__version__ = "0.1.0"
cuda = None
hip = None
debug = False
git_version = "unknown"
