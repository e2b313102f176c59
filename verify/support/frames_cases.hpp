#pragma once
// Cases and comparisons for the frames family (algorithms/frames/): random chains of frames
// moving on the oracle's trajectories (reference/frame_chain_oracle.hpp), the relative
// frames the variants take as input (from the oracle's differentiation of each link alone),
// and the distance between two moving frames.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "cases/random.hpp"
#include "frames/variants.hpp"
#include "reference/frame_chain_oracle.hpp"
#include "reference/reference_scalar.hpp"

namespace rbd::verify::frames {

using oracle::FrameKinematics;
using oracle::LinkTrajectory;

template <class Tuple, class F> void for_each_variant(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f.template operator()<std::tuple_element_t<I, Tuple>>(), ...);
  }(std::make_index_sequence<std::tuple_size_v<Tuple>>{});
}

// n links drawn from one Rng(seed) in a fixed order; numbers O(1), made in double and cast
// exactly to Reference (DESIGN.md section 5).
inline std::vector<LinkTrajectory<Reference>> random_chain(int n, std::uint64_t seed) {
  cases::Rng rng(seed);
  auto v3 = [&](double lo, double hi) {
    return oracle::V3<Reference>{Reference(rng.uniform(lo, hi)), Reference(rng.uniform(lo, hi)), Reference(rng.uniform(lo, hi))};
  };
  std::vector<LinkTrajectory<Reference>> links(n);
  for (auto& L : links) {
    L.p0 = v3(-1, 1);
    L.p1 = v3(-1, 1);
    L.p2 = v3(-1, 1);
    const Eigen::Vector4d q = rng.unit_quaternion();
    L.q0 = {Reference(q[0]), Reference(q[1]), Reference(q[2]), Reference(q[3])};
    const Eigen::Vector3d u = rng.unit_vector(), w = rng.unit_vector();
    L.u = {Reference(u[0]), Reference(u[1]), Reference(u[2])};
    L.w = {Reference(w[0]), Reference(w[1]), Reference(w[2])};
    L.theta = v3(-1, 1);
    L.phi = v3(-1, 1);
  }
  return links;
}

template <class S> Vec3<S> vec3(const oracle::V3<Reference>& a) {
  return Vec3<S>(scalar_cast<S>(a[0]), scalar_cast<S>(a[1]), scalar_cast<S>(a[2]));
}

// The oracle's view of one link as the frame type the variants take.
inline MovingFrame<Reference> to_frame(const FrameKinematics<Reference>& k) {
  MovingFrame<Reference> f;
  f.r = vec3<Reference>(k.r);
  f.q = Quaternion<Reference>{k.q[0], Vec3<Reference>(k.q[1], k.q[2], k.q[3])};
  f.r_dot = vec3<Reference>(k.r_dot);
  f.omega = vec3<Reference>(k.omega);
  f.r_ddot = vec3<Reference>(k.r_ddot);
  f.alpha = vec3<Reference>(k.alpha);
  return f;
}

inline std::vector<MovingFrame<Reference>> relative_frames(const std::vector<LinkTrajectory<Reference>>& links,
                                                           const Reference& t) {
  std::vector<MovingFrame<Reference>> chain;
  for (const auto& L : links) chain.push_back(to_frame(oracle::link_kinematics(L, t)));
  return chain;
}

// The same frames rounded to double, and those doubles again in Reference (exactly): the
// accuracy measurement runs each variant on identical inputs in both precisions.
inline std::vector<MovingFrame<double>> rounded(const std::vector<MovingFrame<Reference>>& chain) {
  std::vector<MovingFrame<double>> out;
  for (const auto& f : chain) out.push_back(f.template cast<double>());
  return out;
}
inline std::vector<MovingFrame<Reference>> widened(const std::vector<MovingFrame<double>>& chain) {
  std::vector<MovingFrame<Reference>> out;
  for (const auto& f : chain) out.push_back(f.template cast<Reference>());
  return out;
}

template <class V, class S> MovingFrame<S> run_variant(const std::vector<MovingFrame<S>>& chain) {
  MovingFrame<S> out;
  V::template run<S>(std::span<const MovingFrame<S>>(chain), out);
  return out;
}

// Relative distance of frame x from the truth y, component group by component group:
// max over {r, A(q), r_dot, omega, r_ddot, alpha} of ||x - y|| / ||y|| (absolute where
// ||y|| = 0). Rotations are compared as matrices, so q and -q are the same rotation.
inline Reference group_rel(const Vec3<Reference>& x, const Vec3<Reference>& y) {
  const Reference ny = y.norm(), d = (x - y).norm();
  return ny == 0 ? d : Reference(d / ny);
}
inline Reference frame_distance(const MovingFrame<Reference>& x, const Mat3<Reference>& A, const FrameKinematics<Reference>& y) {
  Mat3<Reference> Ay;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Ay(i, j) = y.R[i][j];
  Reference d = (A - Ay).norm() / Ay.norm();
  d = std::max(d, group_rel(x.r, vec3<Reference>(y.r)));
  d = std::max(d, group_rel(x.r_dot, vec3<Reference>(y.r_dot)));
  d = std::max(d, group_rel(x.omega, vec3<Reference>(y.omega)));
  d = std::max(d, group_rel(x.r_ddot, vec3<Reference>(y.r_ddot)));
  d = std::max(d, group_rel(x.alpha, vec3<Reference>(y.alpha)));
  return d;
}
// Against the oracle: the variant's q turned into a matrix by the oracle's own formula.
inline Reference distance_to_oracle(const MovingFrame<Reference>& x, const FrameKinematics<Reference>& y) {
  const auto R = oracle::quaternion_rotation<Reference>(x.q.w, x.q.v.x(), x.q.v.y(), x.q.v.z());
  Mat3<Reference> A;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A(i, j) = R[i][j];
  return frame_distance(x, A, y);
}

// All 19 stored numbers of two frames (r, q, r_dot, omega, r_ddot, alpha), for the group
// axioms: the largest absolute difference, q compared as stored (the axioms fix its sign).
template <class S> S max_abs_difference(const MovingFrame<S>& a, const MovingFrame<S>& b) {
  S m = abs_(S(a.q.w - b.q.w));
  auto upd = [&](const Vec3<S>& x, const Vec3<S>& y) {
    for (int i = 0; i < 3; ++i) m = std::max(m, abs_(S(x[i] - y[i])));
  };
  upd(a.q.v, b.q.v);
  upd(a.r, b.r);
  upd(a.r_dot, b.r_dot);
  upd(a.omega, b.omega);
  upd(a.r_ddot, b.r_ddot);
  upd(a.alpha, b.alpha);
  return m;
}

// Normwise relative error of a double frame against a Reference one, in units of eps,
// over the 19 stored numbers (q aligned in sign first: quaternion_from_matrix may pick -q).
inline double error_in_eps(const MovingFrame<double>& x, const MovingFrame<Reference>& y) {
  MovingFrame<Reference> xr = x.template cast<Reference>();
  if (xr.q.w * y.q.w + xr.q.v.dot(y.q.v) < 0) xr.q = -xr.q;
  Eigen::Matrix<Reference, 19, 1> a, b;
  a << xr.r, xr.q.w, xr.q.v, xr.r_dot, xr.omega, xr.r_ddot, xr.alpha;
  b << y.r, y.q.w, y.q.v, y.r_dot, y.omega, y.r_ddot, y.alpha;
  return static_cast<double>(Reference((a - b).norm() / b.norm())) / std::numeric_limits<double>::epsilon();
}

// Agreeing digits; a NaN/inf difference agrees to none (std::min would drop the NaN).
inline double digits_of(const Reference& rel) {
  if (!boost::multiprecision::isfinite(rel)) return 0.0;
  if (rel == 0) return 50.0;
  return std::min(50.0, -static_cast<double>(log10(rel)));
}

}  // namespace rbd::verify::frames
