"""brasa._dynamo: the torch._dynamo names scripts call, over brasa.compiler."""
from .compiler import mark_dynamic, reset  # noqa: F401
