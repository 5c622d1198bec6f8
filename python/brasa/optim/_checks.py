"""Argument checks shared by the optimizers (torch's messages)."""


def check_non_negative(**values):
    for name, v in values.items():
        if not 0.0 <= v:
            raise ValueError(f"Invalid {name.replace('_', ' ')}: {v}")


def check_betas(betas):
    for i, b in enumerate(betas):
        if not 0.0 <= b < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {b}")
