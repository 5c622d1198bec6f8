#pragma once
// <torch/fft.h>: torch::fft::fft, ifft, rfft, irfft, fft2/ifft2/rfft2/irfft2, fftn/ifftn/rfftn/
// irfftn, hfft/ihfft, hfft2/ihfft2, hfftn/ihfftn, fftfreq, rfftfreq, fftshift, ifftshift
// (brasa::fft, which torch:: nominates).

#include "brasa/ops/fft.h"
#include "c10/brasa_namespaces.h"
