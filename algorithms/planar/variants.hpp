#pragma once
// The planar algorithms (Featherstone section 2.16 with Tables 5.1, 6.2 and 7.1).
#include "planar/aba.hpp"
#include "planar/crba.hpp"
#include "planar/rnea.hpp"
#include "planar/to_spatial.hpp"
