#pragma once
// <torch/fft.h>: torch::fft::fft, ifft, rfft, irfft, fft2/ifft2/rfft2/irfft2, fftn/ifftn/rfftn/
// irfftn, fftfreq, rfftfreq, fftshift, ifftshift (brasa::fft, which torch:: nominates); hfft and
// ihfft are not provided.

#include "brasa/ops/fft.h"
#include "c10/brasa_namespaces.h"
