"""parameters_to_vector and vector_to_parameters (torch.nn.utils)."""


def parameters_to_vector(parameters):
    from ... import cat
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    from ... import no_grad
    offset = 0
    with no_grad():
        for p in parameters:
            n = p.numel()
            p.copy_(vec[offset:offset + n].view_as(p))
            offset += n
