# `cmake --install` lays out include/, lib/libbrasa.so and lib/cmake/brasa so that a user project can
# find_package(brasa) and link brasa::brasa (native) or brasa::torch (libtorch spellings).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS brasa brasa_distributed brasa_compile brasa_torch EXPORT brasaTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/brasa DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/compat/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/brasa/compat)
install(EXPORT brasaTargets NAMESPACE brasa:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/brasa)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/brasaConfig.cmake.in
  ${PROJECT_BINARY_DIR}/brasaConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/brasa)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/brasaConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/brasaConfig.cmake ${PROJECT_BINARY_DIR}/brasaConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/brasa)

# find_package(Torch): libtorch's package name and variables over brasa (cmake/TorchConfig.cmake.in),
# version 1.13.0 like the libtorch it is compatible with; any request up to 1.13 is satisfied.
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TorchConfig.cmake.in
  ${PROJECT_BINARY_DIR}/TorchConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Torch)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/TorchConfigVersion.cmake VERSION 1.13.0
  COMPATIBILITY AnyNewerVersion)
install(FILES ${PROJECT_BINARY_DIR}/TorchConfig.cmake ${PROJECT_BINARY_DIR}/TorchConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Torch)
