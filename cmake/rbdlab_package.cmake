# rbdlab as a library (issue 18): the installed CMake package.
#
#   cmake --install <build> --prefix <prefix>   (nothing to build: the package is header-only)
#   <prefix>/include/rbdlab/            the one include root: algorithms/* (core/, model/, the
#                                       families, rbdlab/ = the API), cases/, reference/
#   <prefix>/share/cmake/rbdlab/        rbdlabConfig.cmake, rbdlabConfigVersion.cmake, the targets
#   <prefix>/share/doc/rbdlab/          the families' README.md (what each variant computes)
# Targets (find_package(rbdlab [0.1] [COMPONENTS urdf reference])):
#   rbdlab::rbdlab     the algorithms, the model and the API; needs Eigen 3.4 only
#   rbdlab::urdf       + rbdlab::load_urdf (urdfdom via pkg-config, Debian liburdfdom-dev)
#   rbdlab::reference  + the 50-digit rbd::Reference scalar (Boost.Multiprecision headers; with
#                      -DRBDLAB_MPFR=ON, mpfr_float_50 and libmpfr/libgmp)
# The targets impose no compiler flags on their users (only C++20). rbdlab's own build keeps
# rbdlab_core, with its flags, for the suite; these targets are separate and change nothing there.
# tools/test_install.sh installs into a temporary prefix and builds examples/consumer against it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The version is the API header's (algorithms/rbdlab/api.hpp, rbdlab::version): one place.
file(STRINGS ${CMAKE_SOURCE_DIR}/algorithms/rbdlab/api.hpp _rbdlab_version_line
     REGEX "^inline constexpr std::string_view version = \"[0-9]+\\.[0-9]+\\.[0-9]+\";")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" RBDLAB_VERSION "${_rbdlab_version_line}")
if(NOT RBDLAB_VERSION)
  message(FATAL_ERROR "rbdlab: no version found in algorithms/rbdlab/api.hpp")
endif()

set(RBDLAB_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/rbdlab)
set(RBDLAB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_DATADIR}/cmake/rbdlab)  # header-only: arch-independent

# rbdlab::rbdlab. In the build tree the two source roots (algorithms/ and the clone) stand for the
# installed root, which holds the same relative paths.
add_library(rbdlab_rbdlab INTERFACE)
add_library(rbdlab::rbdlab ALIAS rbdlab_rbdlab)
set_target_properties(rbdlab_rbdlab PROPERTIES EXPORT_NAME rbdlab)
target_include_directories(rbdlab_rbdlab INTERFACE
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/algorithms> $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}>
  $<INSTALL_INTERFACE:${RBDLAB_INSTALL_INCLUDEDIR}>)
target_compile_features(rbdlab_rbdlab INTERFACE cxx_std_20)
target_link_libraries(rbdlab_rbdlab INTERFACE Eigen3::Eigen)

# rbdlab::urdf. Its own pkg-config handle (the prefix RBDLAB_URDFDOM, which rbdlabConfig.cmake
# recreates in the user's project), so the export does not name the suite's PkgConfig::URDFDOM.
pkg_check_modules(RBDLAB_URDFDOM REQUIRED IMPORTED_TARGET urdfdom)
add_library(rbdlab_urdf INTERFACE)
add_library(rbdlab::urdf ALIAS rbdlab_urdf)
set_target_properties(rbdlab_urdf PROPERTIES EXPORT_NAME urdf)
target_link_libraries(rbdlab_urdf INTERFACE rbdlab_rbdlab PkgConfig::RBDLAB_URDFDOM)
target_compile_definitions(rbdlab_urdf INTERFACE RBDLAB_WITH_URDF)

# rbdlab::reference.
add_library(rbdlab_reference INTERFACE)
add_library(rbdlab::reference ALIAS rbdlab_reference)
set_target_properties(rbdlab_reference PROPERTIES EXPORT_NAME reference)
target_link_libraries(rbdlab_reference INTERFACE rbdlab_rbdlab Boost::boost)
target_compile_definitions(rbdlab_reference INTERFACE RBDLAB_WITH_REFERENCE)
if(RBDLAB_MPFR)
  target_compile_definitions(rbdlab_reference INTERFACE RBDLAB_MPFR)
  target_link_libraries(rbdlab_reference INTERFACE mpfr gmp)
endif()

# One export set per target, so that a user without urdfdom (or Boost) still loads the package:
# rbdlabConfig.cmake includes a component's file only when its dependency is found.
install(TARGETS rbdlab_rbdlab EXPORT rbdlabTargets)
install(TARGETS rbdlab_urdf EXPORT rbdlabUrdfTargets)
install(TARGETS rbdlab_reference EXPORT rbdlabReferenceTargets)
foreach(_set rbdlabTargets rbdlabUrdfTargets rbdlabReferenceTargets)
  install(EXPORT ${_set} NAMESPACE rbdlab:: DESTINATION ${RBDLAB_INSTALL_CMAKEDIR})
endforeach()

install(DIRECTORY ${CMAKE_SOURCE_DIR}/algorithms/ DESTINATION ${RBDLAB_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/cases/ DESTINATION ${RBDLAB_INSTALL_INCLUDEDIR}/cases
        FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/reference/ DESTINATION ${RBDLAB_INSTALL_INCLUDEDIR}/reference
        FILES_MATCHING PATTERN "*.hpp")
file(GLOB _rbdlab_family_readmes RELATIVE ${CMAKE_SOURCE_DIR}/algorithms ${CMAKE_SOURCE_DIR}/algorithms/*/README.md)
foreach(_readme IN LISTS _rbdlab_family_readmes)
  get_filename_component(_family ${_readme} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/algorithms/${_readme} DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/rbdlab/${_family})
endforeach()

set(RBDLAB_CONFIG_MPFR ${RBDLAB_MPFR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/rbdlabConfig.cmake.in
  ${CMAKE_BINARY_DIR}/rbdlab-package/rbdlabConfig.cmake INSTALL_DESTINATION ${RBDLAB_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/rbdlab-package/rbdlabConfigVersion.cmake
  VERSION ${RBDLAB_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_BINARY_DIR}/rbdlab-package/rbdlabConfig.cmake
              ${CMAKE_BINARY_DIR}/rbdlab-package/rbdlabConfigVersion.cmake
        DESTINATION ${RBDLAB_INSTALL_CMAKEDIR})
