# Warnings for brasa's own targets; BRASA_WERROR (on in CI) turns them into errors.
add_library(brasa_warnings INTERFACE)
target_compile_options(brasa_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter
                       $<$<BOOL:${BRASA_WERROR}>:-Werror>)
# GCC 12 reports -Wrestrict false positives inside libstdc++'s std::string operator+ at -O2/-O3
# (GCC bug 105329); they are not in our code, so they must not fail a -Werror build.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(brasa_warnings INTERFACE -Wno-restrict)
endif()
