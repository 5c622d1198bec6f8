"""brasa's typed errors reach Python as torch's exception types with the C++ message."""
import pytest
import torch

import brasa


def raises_like_torch(fn):
    """fn(module) raises in brasa an exception of the type torch raises (or a subclass)."""
    with pytest.raises(Exception) as t:
        fn(torch)
    with pytest.raises(type(t.value)) as b:
        fn(brasa)
    assert str(b.value)
    return b.value


@pytest.mark.parametrize("fn", [
    lambda m: m.ones(2, 3) + m.ones(4),           # broadcast mismatch: RuntimeError
    lambda m: m.ones(2, 3).matmul(m.ones(2, 3)),  # shape mismatch
    lambda m: m.ones(2, 3).sum(5),                 # dim out of range: IndexError
    lambda m: m.ones(2, 3)[5],                     # index out of range: IndexError
    lambda m: m.ones(2, 3).view(7),                # invalid view
    lambda m: m.ones(2).add("x"),                  # bad argument type: TypeError
    lambda m: m.ones(2).item(),                    # more than one element
    lambda m: m.cat([m.ones(2, 2), m.ones(3, 3)], 1),
])
def test_error_types(fn):
    raises_like_torch(fn)


def test_message_names_the_op():
    with pytest.raises(RuntimeError) as e:
        brasa.ones(2, 3) + brasa.ones(4)
    assert "add" in str(e.value) or "size" in str(e.value)


def test_no_matching_overload_is_type_error():
    with pytest.raises(TypeError) as e:
        brasa.add(brasa.ones(1), brasa.ones(1), foo=1)
    assert "add()" in str(e.value)


def test_every_op_raises_instead_of_crashing():
    """Every bound op, called with no arguments, with a bad argument, and with shapes it may not
    accept, raises a Python exception (or returns) and never takes the interpreter down."""
    names = sorted({s[0] for s in brasa._C._bound_signatures()})
    x = brasa.ones(2, 3)
    for name in names:
        fn = getattr(brasa._ops, name)
        with pytest.raises(TypeError):
            fn()
        with pytest.raises(TypeError):
            fn(x, object())
        for args in [(x,), (x, x), (x, 1), (brasa.ones(0), 0), (x, [0], [1])]:
            try:
                fn(*args)
            except (RuntimeError, TypeError, ValueError, IndexError):
                pass
