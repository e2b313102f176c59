#pragma once
// The 50-digit Reference scalar (DESIGN.md section 1): Boost.Multiprecision's
// cpp_bin_float_50 without expression templates (Eigen needs plain value semantics).
// Configure with -DRBDLAB_MPFR=ON to use mpfr_float_50 instead.
#include <Eigen/Core>
#ifdef RBDLAB_MPFR
#include <boost/multiprecision/mpfr.hpp>
#else
#include <boost/multiprecision/cpp_bin_float.hpp>
#endif
#include <boost/multiprecision/eigen.hpp>

namespace rbd {
#ifdef RBDLAB_MPFR
using Reference = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<50>,
                                                boost::multiprecision::et_off>;
#else
using Reference = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<50>,
                                                boost::multiprecision::et_off>;
#endif
}  // namespace rbd
