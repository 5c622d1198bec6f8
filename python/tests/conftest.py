"""pytest setup: brasa's tests compare against torch 1.13 (the oracle), imported as `torch`."""
import pytest

torch = pytest.importorskip("torch")
