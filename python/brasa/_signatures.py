"""torch's defaults for the arguments of brasa's ops (Note [Ops bound from their declarations]).

brasa's schemas carry no defaults. An argument whose type is optional (`T?`) or that is called
`out` defaults to None; otherwise OP_DEFAULTS[op][arg] (op as in the registry, "sum", or with its
overload, "max.dim") and then DEFAULTS[arg] give the default; an argument with neither is required,
as in torch. These are torch 1.13's values (tests/test_signatures.py checks them against torch's
schemas)."""

DEFAULTS = {"alpha": 1, "beta": 1, "keepdim": False}

_ALL_DIMS = {"dim": []}
OP_DEFAULTS = {
    "sum": _ALL_DIMS, "mean": _ALL_DIMS, "prod": _ALL_DIMS, "all": _ALL_DIMS, "any": _ALL_DIMS,
    "amax": _ALL_DIMS, "amin": _ALL_DIMS, "count_nonzero": _ALL_DIMS, "norm": _ALL_DIMS,
    "var": {"dim": [], "correction": 1}, "std": {"dim": [], "correction": 1},
    "gelu": {"approximate": "none"},
    "sort": {"dim": -1, "descending": False},
    "topk": {"dim": -1, "largest": True, "sorted": True},
    "tril": {"diagonal": 0}, "triu": {"diagonal": 0},
    "diagonal": {"offset": 0, "dim1": 0, "dim2": 1},
    "expand": {"implicit": False},
    "split_with_sizes": {"dim": 0}, "unbind": {"dim": 0},
    "cat": {"dim": 0}, "stack": {"dim": 0},
    "slice": {"dim": 0, "step": 1},
    "allclose": {"rtol": 1e-05, "atol": 1e-08, "equal_nan": False},
    "gather": {"sparse_grad": False},
    "scatter_reduce": {"include_self": True},
    "multinomial": {"replacement": False},
    "meshgrid": {"indexing": "ij"}, "gelu_backward": {"approximate": "none"},
    "searchsorted": {"out_int32": False, "right": False},
    "embedding": {"padding_idx": -1, "scale_grad_by_freq": False, "sparse": False},
    "linalg_solve": {"left": True}, "linalg_cholesky": {"upper": False},
    "linalg_qr": {"mode": "reduced"}, "linalg_pinv": {"hermitian": False},
    "linalg_lu_factor_ex": {"pivot": True, "check_errors": False},
    "_unique2": {"sorted": True, "return_inverse": False, "return_counts": False},
    "uniform_": {"from": 0.0, "to": 1.0}, "normal_": {"mean": 0.0, "std": 1.0},
    "normal_functional": {"mean": 0.0, "std": 1.0},
    "linalg_ldl_factor_ex": {"hermitian": False, "check_errors": False},
    "linalg_ldl_solve": {"hermitian": False},
    "bernoulli_.float": {"p": 0.5}, "exponential_": {"lambd": 1.0},
    "one_hot": {"num_classes": -1},
    "index_add_": {"alpha": 1},
}
