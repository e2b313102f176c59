#pragma once
// Scalar-generic helpers. Every algorithm in rbdlab is a template on Scalar and must run
// unchanged in double, in the 50-digit Reference scalar and in the operation-counting
// scalar (DESIGN.md section 1). Three rules follow, and this header makes them easy:
//  - math functions are called unqualified through these wrappers, so argument-dependent
//    lookup finds boost::multiprecision's and the counting scalar's overloads;
//  - constants enter as Scalar(k) built from exactly representable doubles or integers;
//  - fixed-size Eigen types only, so nothing allocates.
#include <Eigen/Core>
#include <Eigen/Geometry>  // cross()
#include <cmath>

namespace rbd {

template <class S> using Vec3 = Eigen::Matrix<S, 3, 1>;
template <class S> using Mat3 = Eigen::Matrix<S, 3, 3>;
template <class S> using Vec6 = Eigen::Matrix<S, 6, 1>;
template <class S> using Mat6 = Eigen::Matrix<S, 6, 6>;
template <class S> using VecX = Eigen::Matrix<S, Eigen::Dynamic, 1>;
template <class S> using MatX = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
// A joint's motion subspace has at most 6 columns; the fixed maximum keeps it on the stack.
template <class S> using Mat6N = Eigen::Matrix<S, 6, Eigen::Dynamic, 0, 6, 6>;
template <class S> using VecN = Eigen::Matrix<S, Eigen::Dynamic, 1, 0, 6, 1>;
// A set of spatial force vectors, one per column, stored row by row: each component of
// consecutive vectors is contiguous, so an operation on many of them vectorises.
template <class S> using Forces6 = Eigen::Matrix<S, 6, Eigen::Dynamic, Eigen::RowMajor>;

// The small spatial-algebra functions (ang, join, crm, crf, Transform::apply..., the screw
// helpers) are forced inline: called out of line in the trees' inner loops, each 6-vector
// result goes through memory and is read back with wider loads than it was written with (a
// store-forwarding stall per call); inlined, it stays in registers. Measured: the CRBA's
// F = X^* F loop ran ~2x faster.
#define RBD_INLINE EIGEN_ALWAYS_INLINE
#if defined(__GNUC__)
#define RBD_INLINE_LAMBDA __attribute__((always_inline))  // the same, for a lambda's operator()
#else
#define RBD_INLINE_LAMBDA
#endif

template <class S> inline S sin_(const S& x) { using std::sin; return sin(x); }
template <class S> inline S cos_(const S& x) { using std::cos; return cos(x); }
// cos x and sin x of one angle (a joint's), as cos_ and sin_ give them; a scalar that can do
// both in one pass says so with cos_sin_lanes (Batch<N>). Each scalar's operation counts are
// those of the two calls.
template <class S> struct CosSin {
  S c, s;
};
template <class S> inline CosSin<S> cos_sin_(const S& x) {
  if constexpr (requires(S c, S s) { cos_sin_lanes(x, c, s); }) {
    CosSin<S> out;
    cos_sin_lanes(x, out.c, out.s);
    return out;
  } else {
    return {cos_(x), sin_(x)};
  }
}
template <class S> inline S sqrt_(const S& x) { using std::sqrt; return sqrt(x); }
template <class S> inline S abs_(const S& x) { using std::abs; return abs(x); }

// pi in S's own precision, for every scalar (the counting scalar has no acos or atan): Newton's
// iteration x <- x + sin(x) on sin(x) = 0 from x = 3 converges cubically (the error e becomes
// ~e^3 / 6): 5e-4, 2e-11, 1e-33, then below Reference's 1e-50. Six steps leave margin; it stops
// early once x no longer changes. Not for hot loops: callers compute it once (in a prepare()).
template <class S> inline S pi_() {
  S x = S(3);
  for (int i = 0; i < 6; ++i) {
    const S next = x + sin_(x);
    if (!(next != x)) break;
    x = next;
  }
  return x;
}

// Conversion between scalars goes through this one point, so the counting scalar and
// Reference can each say how they are made from a double (exactly, by construction).
template <class To, class From> inline To scalar_cast(const From& x) { return static_cast<To>(x); }

// 3D cross-product matrix [a]x, used by Featherstone's "x" operators (Eq. 2.23, App. A).
// a x b, forced inline (Eigen's cross is an ordinary inline function that GCC leaves out of
// line in large loops, returning through memory: see RBD_INLINE). The same formula, term for
// term, as Eigen's MatrixBase::cross, so the results are identical in every scalar.
template <class S> RBD_INLINE Vec3<S> cross(const Vec3<S>& a, const Vec3<S>& b) {
  return Vec3<S>(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
}
template <class S> inline Mat3<S> skew(const Vec3<S>& a) {
  Mat3<S> m;
  m << S(0), -a.z(), a.y(),
       a.z(), S(0), -a.x(),
       -a.y(), a.x(), S(0);
  return m;
}

}  // namespace rbd
