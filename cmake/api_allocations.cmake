# rbdlab_api_allocations: verify/test_api.cpp compiled a second time, with its allocation count
# (RBDLAB_API_COUNT_ALLOCATIONS=1), as its own program: it replaces malloc and operator new to
# count them, and rbdlab_tests already holds test_no_allocation.cpp's replacements (one set per
# program). Built with the gates (the Makefile's VERIFY_TARGETS lists it) at their
# optimisation, and run by ctest. It belongs in verify/CMakeLists.txt; it is kept here only because
# that file was being edited by others when it was added.
add_executable(rbdlab_api_allocations $<TARGET_OBJECTS:rbdlab_catch_main> ${CMAKE_SOURCE_DIR}/verify/test_api.cpp)
target_link_libraries(rbdlab_api_allocations PRIVATE rbdlab_core Catch2::Catch2)
target_compile_options(rbdlab_api_allocations PRIVATE ${RBDLAB_CHECK_OPTIMIZATION})
target_compile_definitions(rbdlab_api_allocations PRIVATE RBDLAB_API_COUNT_ALLOCATIONS=1)
add_test(NAME api_allocations COMMAND rbdlab_api_allocations --reporter console)
