"""brasa.fft: torch.fft's transforms (brasa's C++ ones, on FFTW; python/src/fft_binding.cpp)."""
from ._C._fft import (fft, fft2, fftfreq, fftn, fftshift, hfft, hfft2, hfftn, ifft, ifft2,  # noqa
                      ifftn, ifftshift, ihfft, ihfft2, ihfftn, irfft, irfft2, irfftn, rfft, rfft2,
                      rfftfreq, rfftn)
