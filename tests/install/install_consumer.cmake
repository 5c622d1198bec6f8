# Run by ctest (see CMakeLists.txt): install, then build and run the user project against the prefix.
cmake_minimum_required(VERSION 3.25)

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
                  TIMEOUT 240)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_consumer: ${what} failed (${rc}):\n${out}")
  endif()
  message(STATUS "install_consumer: ${what}: ok\n${out}")
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run_step("cmake --install" ${CMAKE_COMMAND} --install ${BRASA_BUILD_DIR} --prefix ${prefix})
foreach(f include/brasa/brasa.h include/brasa/compat/torch/torch.h libbrasa.so
          libbrasa_distributed.so brasaConfig.cmake brasaTargets.cmake TorchConfig.cmake
          TorchConfigVersion.cmake)
  file(GLOB_RECURSE found ${prefix}/*/${f})  # the lib dir may be lib, lib64 or lib/<multiarch>
  if(NOT EXISTS ${prefix}/${f} AND NOT found)
    message(FATAL_ERROR "install_consumer: ${f} was not installed under ${prefix}")
  endif()
endforeach()

run_step("configure user project" ${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build
         -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
         "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${EXE_LINKER_FLAGS}")
run_step("build user project" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)

run_step("run native_user" ${WORK_DIR}/build/native_user)
if(NOT step_output MATCHES "native: 7 7 7 7 7 7")
  message(FATAL_ERROR "install_consumer: native_user printed:\n${step_output}")
endif()
run_step("run torch_user" ${WORK_DIR}/build/torch_user)
if(NOT step_output MATCHES "torch: sum 42 dtype Double")
  message(FATAL_ERROR "install_consumer: torch_user printed:\n${step_output}")
endif()
# Note [Distributed library]: a one-process program loads neither the distributed library nor MPI.
run_step("ldd torch_user" ldd ${WORK_DIR}/build/torch_user)
if(step_output MATCHES "libbrasa_distributed|libmpi|libgloo")
  message(FATAL_ERROR "install_consumer: torch_user loads distributed libraries:\n${step_output}")
endif()
# Note [LAPACK]: LAPACK (and OpenBLAS's thread pool) is loaded by the first decomposition only.
if(step_output MATCHES "liblapack|libopenblas")
  message(FATAL_ERROR "install_consumer: torch_user loads LAPACK at start:\n${step_output}")
endif()
run_step("run dist_user" ${WORK_DIR}/build/dist_user)
if(NOT step_output MATCHES "dist: gloo sum 21")
  message(FATAL_ERROR "install_consumer: dist_user printed:\n${step_output}")
endif()

# A libtorch project: find_package(Torch) and the TORCH_* variables (torch_project/).
run_step("configure torch_project" ${CMAKE_COMMAND} -S ${TORCH_PROJECT_DIR} -B ${WORK_DIR}/torch
         -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
         "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${EXE_LINKER_FLAGS}")
if(NOT step_output MATCHES "Torch 1.13.0 at ")
  message(FATAL_ERROR "install_consumer: find_package(Torch) said:\n${step_output}")
endif()
run_step("build torch_project" ${CMAKE_COMMAND} --build ${WORK_DIR}/torch)
run_step("run torch_find_user" ${WORK_DIR}/torch/torch_find_user)
if(NOT step_output MATCHES "find_package\\(Torch\\): var\\(1\\) 2 grad -0.3576")
  message(FATAL_ERROR "install_consumer: torch_find_user printed:\n${step_output}")
endif()
run_step("run torch_dirs_user" ${WORK_DIR}/torch/torch_dirs_user)
if(NOT step_output MATCHES "torch dirs: mse 3")
  message(FATAL_ERROR "install_consumer: torch_dirs_user printed:\n${step_output}")
endif()

# The out-of-tree backend example, built on its own against the installed brasa, then loaded.
run_step("configure examples/custom_backend" ${CMAKE_COMMAND} -S ${BACKEND_DIR}
         -B ${WORK_DIR}/backend -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
         -DCMAKE_PREFIX_PATH=${prefix} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
         "-DCMAKE_SHARED_LINKER_FLAGS=${EXE_LINKER_FLAGS}"
         "-DCMAKE_MODULE_LINKER_FLAGS=${EXE_LINKER_FLAGS}")
run_step("build examples/custom_backend" ${CMAKE_COMMAND} --build ${WORK_DIR}/backend)
run_step("run backend_user" ${WORK_DIR}/build/backend_user ${WORK_DIR}/backend/libbrasa_npu.so)
if(NOT step_output MATCHES "backend: npu:0 loss 48 grad 48")
  message(FATAL_ERROR "install_consumer: backend_user printed:\n${step_output}")
endif()
