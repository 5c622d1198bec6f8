#pragma once
// <c10/macros/Export.h>: libtorch's visibility macros. Code compiled against brasa is user code,
// so C10_API / TORCH_API export from the user's own library like C10_EXPORT.

#define C10_EXPORT __attribute__((__visibility__("default")))
#define C10_HIDDEN __attribute__((__visibility__("hidden")))
#define C10_IMPORT C10_EXPORT
#define C10_API_ENUM
#ifndef C10_API
#define C10_API C10_EXPORT
#endif
#ifndef TORCH_API
#define TORCH_API C10_EXPORT
#endif
#ifndef TORCH_CUDA_CPP_API
#define TORCH_CUDA_CPP_API C10_EXPORT
#endif
