# Note [CPU capabilities]
# Kernel sources (src/backends/cpu/kernels/*.cpp) are compiled once per CPU capability with that
# capability's flags; each copy registers its kernels into dispatch stubs under its capability, and the
# best one the running CPU supports is chosen at first use (see src/backends/cpu/stub.h).
set(BRASA_CPU_CAPABILITIES DEFAULT AVX2 AVX512)
# DEFAULT is the build for CPUs without AVX2 and, on every CPU, for the integer and bool dtypes of
# the files under Note [Capability dtypes] (src/backends/cpu/stub.h): -O2 with the cheap vectoriser
# cost model, so that its loops are vectorised (SSE2) without -O3's unrolling and versioning.
set(BRASA_FLAGS_DEFAULT -O2 -fvect-cost-model=cheap)
set(BRASA_FLAGS_AVX2 -O3 -mavx2 -mfma -mf16c -mbmi2)
set(BRASA_FLAGS_AVX512 -O3 -mavx512f -mavx512bw -mavx512vl -mavx512dq -mavx2 -mfma -mf16c -mbmi2
    -mprefer-vector-width=512)

# Note [Capability builds per file]
# A kernel file whose loops gain nothing from wider vectors (measured with bench/capability_bench.py:
# docs/benchmarks.md, "A lighter library") starts with `#define BRASA_KERNEL_DEFAULT_ONLY` and is
# compiled for DEFAULT only; one whose loops gain from AVX2 but not from AVX-512 starts with
# `#define BRASA_KERNEL_UP_TO_AVX2` and is compiled for DEFAULT and AVX2. A stub takes the widest
# entry the CPU supports (stub.h), so on an AVX-512 CPU such files run their AVX2 or DEFAULT build.
# A file that also has `#define BRASA_KERNEL_DEFAULT_O3` gets -O3 with GCC's dynamic vectoriser
# cost model in its DEFAULT build instead of BRASA_FLAGS_DEFAULT's -O2 and cheap model: scalar
# loops over windows (pooling, the direct convolution) that ran 1.1-2x slower at -O2 than at -O3,
# where they were compiled before they became kernels (docs/benchmarks.md). The wider builds are
# -O3 already. A file with `#define BRASA_KERNEL_DEFAULT_OS` (cold code: the Bessel functions) is
# compiled with -Os instead (Note [Library size] in src/CMakeLists.txt).
function(brasa_add_kernel_objects target)
  set(objs)
  set(default_only)
  set(up_to_avx2)
  foreach(src IN LISTS ARGN)
    file(STRINGS ${src} marker LIMIT_COUNT 20
         REGEX "^#define BRASA_KERNEL_(DEFAULT_ONLY|UP_TO_AVX2|DEFAULT_O3|DEFAULT_OS)$")
    if(marker MATCHES "DEFAULT_ONLY")
      list(APPEND default_only ${src})
    elseif(marker MATCHES "UP_TO_AVX2")
      list(APPEND up_to_avx2 ${src})
    endif()
    if(marker MATCHES "DEFAULT_O3")
      set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS -O3 -fvect-cost-model=dynamic)
    endif()
    if(marker MATCHES "DEFAULT_OS")
      set_property(SOURCE ${src} APPEND PROPERTY COMPILE_OPTIONS -Os)
    endif()
  endforeach()
  foreach(cap IN LISTS BRASA_CPU_CAPABILITIES)
    set(srcs ${ARGN})
    if(NOT cap STREQUAL "DEFAULT" AND default_only)
      list(REMOVE_ITEM srcs ${default_only})
    endif()
    if(cap STREQUAL "AVX512" AND up_to_avx2)
      list(REMOVE_ITEM srcs ${up_to_avx2})
    endif()
    add_library(${target}_${cap} OBJECT ${srcs})
    target_compile_definitions(${target}_${cap} PRIVATE BRASA_CPU_CAPABILITY=${cap}
                               BRASA_CPU_CAPABILITY_${cap}=1 BRASA_BUILDING_LIBRARY)
    target_compile_options(${target}_${cap} PRIVATE ${BRASA_FLAGS_${cap}} ${BRASA_OPT_OVERRIDE}
                           -ffunction-sections)
    target_include_directories(${target}_${cap} PRIVATE ${PROJECT_SOURCE_DIR}/include
                               ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(${target}_${cap} PRIVATE brasa_warnings OpenMP::OpenMP_CXX)
    list(APPEND objs $<TARGET_OBJECTS:${target}_${cap}>)
  endforeach()
  set(${target}_OBJECTS ${objs} PARENT_SCOPE)
endfunction()
