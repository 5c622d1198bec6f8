#pragma once
// Export and branch-hint macros shared by every public header.

#define BRASA_API __attribute__((visibility("default")))
#define BRASA_LIKELY(x) __builtin_expect(!!(x), 1)
#define BRASA_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define BRASA_NOINLINE __attribute__((noinline))
#define BRASA_ALWAYS_INLINE inline __attribute__((always_inline))
