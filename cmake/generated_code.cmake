# Featherstone section 10.4 as a build step (algorithms/symbolic/README.md): rbdlab_codegen traces
# the inverse dynamics, mass matrix and forward dynamics of each case below, simplifies the
# assignment lists and writes them as straight-line C++ into <build>/generated/, which is compiled
# into rbdlab_generated. The sources are generated, never committed; a change to the algorithms or
# the simplifier rebuilds rbdlab_codegen and so regenerates them. The tests (verify/test_symbolic.cpp)
# and the benchmarks link the library.
# Case ids of cases::build_case only (the tests and benchmarks rebuild each case by its id; for a URDF
# file of your own, run rbdlab_codegen by hand: it takes paths too).
set(RBDLAB_GENERATED_CASES urdf:ur5 urdf:iiwa14 urdf:panda urdf:solo12 gu:7
    CACHE STRING "Cases (cases::build_case ids) for which straight-line dynamics code is generated")

add_executable(rbdlab_codegen ${CMAKE_SOURCE_DIR}/cli/codegen.cpp)
target_link_libraries(rbdlab_codegen PRIVATE rbdlab_core)
target_compile_options(rbdlab_codegen PRIVATE ${RBDLAB_CHECK_OPTIMIZATION})

set(_rbdlab_gen_dir ${CMAKE_BINARY_DIR}/generated)
set(_rbdlab_gen_sources ${_rbdlab_gen_dir}/generated_registry.cpp)
foreach(_case ${RBDLAB_GENERATED_CASES})
  string(REGEX REPLACE "^urdf:" "" _slug "${_case}")
  string(REGEX REPLACE "[^A-Za-z0-9]" "_" _slug "${_slug}")
  list(APPEND _rbdlab_gen_sources ${_rbdlab_gen_dir}/generated_${_slug}.cpp)
endforeach()
add_custom_command(
  OUTPUT ${_rbdlab_gen_sources}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_rbdlab_gen_dir}
  COMMAND rbdlab_codegen ${_rbdlab_gen_dir} ${RBDLAB_GENERATED_CASES}
  DEPENDS rbdlab_codegen
  COMMENT "rbdlab_codegen: straight-line dynamics for ${RBDLAB_GENERATED_CASES}"
  VERBATIM)
# Compiled with the tree's build-type flags and rbdlab_core's (-ffp-contract=off): the functions
# then round exactly as symbolic::evaluate<double> does, which the tests check bit for bit.
add_library(rbdlab_generated STATIC ${_rbdlab_gen_sources})
target_link_libraries(rbdlab_generated PUBLIC rbdlab_core)
