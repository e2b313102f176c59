// The one Catch2 main; every verify/test_*.cpp adds its TEST_CASEs to this executable.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
