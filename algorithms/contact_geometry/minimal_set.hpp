#pragma once
// Section 11.6's rule for line and surface contacts: a point contact whose normal, as a spatial
// force on the body, is a nonnegative combination of the others' ("positively dependent",
// the footnote to the rule) adds nothing to the contact constraint and can be dropped; applied
// until no such contact is left, it gives a minimal set (Figure 11.7: two ends for an edge on a
// plane, the corners of the contact area's convex hull for a face).
//
// The test of one contact is a nonnegative least-squares problem (nnls.hpp): the contact is
// dependent when min |sum_k a_k f_k - f_i| over a_k >= 0 is at most tol |f_i|. Dropping a
// dependent contact leaves the cone of the others unchanged, so testing the contacts one by one
// in order, each against those still kept, gives a set none of which depends on the rest, in one
// pass. (Of two identical contacts the first is dropped and the second then kept.)
#include <stdexcept>
#include <vector>

#include "contact_geometry/contact_set.hpp"
#include "contact_geometry/nnls.hpp"

namespace rbd::geometry {

// The columns of W (spatial forces, or columns of T; a zero column is dependent on anything)
// that the rule keeps, as indices in increasing order. tol: the residual, relative to the
// column's length, below which a column counts as a nonnegative combination of the others. The
// columns are scaled to unit length first, which changes no positive dependence; a wrench's
// moment and force parts still weigh by the units of length, so choose the origin and the scale
// of the moments with the contacts (minimal_contact_set does).
template <class S> std::vector<int> positively_independent(const MatX<S>& W, const S& tol) {
  if (!(detail::finite_(tol) && tol > S(0)))
    throw std::invalid_argument("contact geometry: minimal set: tol must be finite and > 0 (got " + detail::num(tol) + ")");
  if (!detail::all_finite(W)) throw std::invalid_argument("contact geometry: minimal set: a force has a non-finite entry");
  MatX<S> U = W;
  std::vector<int> kept;
  for (Eigen::Index i = 0; i < W.cols(); ++i) {
    const S len = sqrt_(S(W.col(i).squaredNorm()));
    if (len > S(0)) {
      U.col(i) /= len;
      kept.push_back(static_cast<int>(i));
    }
  }
  for (std::size_t k = 0; k < kept.size();) {
    if (kept.size() == 1) break;
    MatX<S> others(W.rows(), static_cast<Eigen::Index>(kept.size() - 1));
    Eigen::Index c = 0;
    for (std::size_t j = 0; j < kept.size(); ++j)
      if (j != k) others.col(c++) = U.col(kept[j]);
    const NnlsResult<S> r = nnls<S>(others, VecX<S>(U.col(kept[k])));
    if (r.residual <= tol)
      kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(k));
    else
      ++k;
  }
  return kept;
}

// A contact set reduced by the rule. Each point's normal acts on b as the wrench
// [(point - c) x normal / l; normal] about the points' centroid c, its moment divided by l, the
// largest distance of a point from c, so that both parts are of order 1 whatever the units.
template <class S> ContactSet<S> minimal_contact_set(const ContactSet<S>& set, const S& tol) {
  const Eigen::Index k = static_cast<Eigen::Index>(set.points.size());
  Vec3<S> c = Vec3<S>::Zero();
  for (const ContactPoint<S>& p : set.points) c += p.point;
  c /= S(static_cast<double>(std::max<Eigen::Index>(k, 1)));
  S l = S(0);
  for (const ContactPoint<S>& p : set.points) l = std::max<S>(l, sqrt_(S((p.point - c).squaredNorm())));
  if (!(l > S(0))) l = S(1);
  MatX<S> W(6, k);
  for (Eigen::Index i = 0; i < k; ++i) {
    const ContactPoint<S>& p = set.points[static_cast<std::size_t>(i)];
    W.col(i) << cross<S>(Vec3<S>(p.point - c), p.normal) / l, p.normal;
  }
  ContactSet<S> out{set.distance, {}};
  for (int i : positively_independent<S>(W, tol)) out.points.push_back(set.points[static_cast<std::size_t>(i)]);
  return out;
}

}  // namespace rbd::geometry
