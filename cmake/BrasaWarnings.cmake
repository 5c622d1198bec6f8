# Warnings for brasa's own targets; BRASA_WERROR (on in CI) turns them into errors.
add_library(brasa_warnings INTERFACE)
target_compile_options(brasa_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter
                       $<$<BOOL:${BRASA_WERROR}>:-Werror>)
