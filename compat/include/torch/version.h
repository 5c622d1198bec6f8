#pragma once
// <torch/version.h>: the libtorch version whose C++ API brasa's compat headers follow (1.13.0, as
// Debian's libtorch-dev reports itself), for programs that test it with #if.

#define TORCH_VERSION_MAJOR 1
#define TORCH_VERSION_MINOR 13
#define TORCH_VERSION_PATCH 0
#define TORCH_VERSION "1.13.0"
