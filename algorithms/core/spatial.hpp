#pragma once
// Spatial motion and force vectors, angular part first (Featherstone ch. 2).
// A motion vector is [omega; v], a force vector is [n; f]; both are Vec6.
#include "core/scalar.hpp"

namespace rbd {

template <class S> RBD_INLINE Vec3<S> ang(const Vec6<S>& x) { return x.template head<3>(); }
template <class S> RBD_INLINE Vec3<S> lin(const Vec6<S>& x) { return x.template tail<3>(); }

template <class S> RBD_INLINE Vec6<S> join(const Vec3<S>& top, const Vec3<S>& bottom) {
  Vec6<S> x;
  x.template head<3>() = top;  // not the comma initialiser: it is not inlined and makes the
  x.template tail<3>() = bottom;  // result go through memory (see RBD_INLINE)
  return x;
}

// v x m, the motion cross product (Eq. 2.31): [w x mw; w x mv + v x mw].
template <class S> RBD_INLINE Vec6<S> crm(const Vec6<S>& v, const Vec6<S>& m) {
  const Vec3<S> w = ang(v), vl = lin(v), mw = ang(m), mv = lin(m);
  return join<S>(cross<S>(w, mw), cross<S>(w, mv) + cross<S>(vl, mw));
}

// v x* f, the force cross product (Eq. 2.32): [w x n + v x f; w x f].
template <class S> RBD_INLINE Vec6<S> crf(const Vec6<S>& v, const Vec6<S>& f) {
  const Vec3<S> w = ang(v), vl = lin(v), n = ang(f), fl = lin(f);
  return join<S>(cross<S>(w, n) + cross<S>(vl, fl), cross<S>(w, fl));
}

// Dense 6x6 forms of the two operators, for tests and for readers comparing with Eq. 2.31-2.32.
template <class S> inline Mat6<S> crm_matrix(const Vec6<S>& v) {
  Mat6<S> m = Mat6<S>::Zero();
  m.template block<3, 3>(0, 0) = skew<S>(ang(v));
  m.template block<3, 3>(3, 0) = skew<S>(lin(v));
  m.template block<3, 3>(3, 3) = skew<S>(ang(v));
  return m;
}
template <class S> inline Mat6<S> crf_matrix(const Vec6<S>& v) { return -crm_matrix<S>(v).transpose(); }

}  // namespace rbd
