#pragma once
// Gear constraints on a kinematic tree (Featherstone section 9.6): a gear pair makes one joint
// variable a constant multiple of another, q_driven = ratio * q_driver, as the arrows of
// Figure 9.2 read (rho_1 points from joint 1 to joint 2 because q_2 = rho_1 q_1). With the
// undriven joint variables as the independent coordinates y, q = gamma(y) and qd = G yd with a
// constant G (one nonzero per row, and most of those ones), so g = Gdot yd = 0 and the geared
// equation of motion is Eq. 9.26, G^T H G ydd = G^T (tau - C).
//
// Supported: linear pairs between 1-DoF joints (revolute, prismatic, helical), any number of
// driven joints per driver, a driver that is not itself driven (compose the ratios instead:
// q_3 = r_2 q_2 with q_2 = r_1 q_1 is q_3 = (r_1 r_2) q_1). Not supported: nonlinear gears and
// differentials (several drivers), for which G would depend on q and g would not vanish.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace rbd {

// q_driven = ratio * q_driver, joints numbered as bodies (0-based).
struct GearPair {
  int driven = -1;
  int driver = -1;
  double ratio = 1;
  friend bool operator==(const GearPair&, const GearPair&) = default;
};
using GearPairs = std::vector<GearPair>;

// The pairs resolved against one model. Columns of G are the independent velocity variables in
// qd order; the independent position coordinates y are q without the driven joints' entries.
template <class S> struct GearMap {
  int ny = 0;                 // columns of G: independent velocity variables
  int nyq = 0;                // independent position coordinates
  std::vector<int> col;       // per velocity variable k: the column of G's one nonzero in row k
  std::vector<char> unit;     // per velocity variable k: that nonzero is 1 (no multiplication)
  std::vector<S> ratio;       // per velocity variable k: its value
  std::vector<int> y_of_q;    // per position coordinate: its index in y, or -1 (driven joint)
  std::vector<int> driver_q;  // per position coordinate of a driven joint: the driver's; else -1
  std::vector<S> ratio_q;     // per position coordinate of a driven joint: its ratio
  std::vector<int> v_of_y;    // per column of G: the velocity variable it is (an undriven one)

  // Checks every pair against the model; an error names the pair and what is wrong with it.
  static GearMap build(const Model<S>& m, const GearPairs& pairs) {
    GearMap g;
    std::vector<int> driven_by(m.nb, -1);
    std::vector<double> ratio_of(m.nb, 1.0);
    for (std::size_t p = 0; p < pairs.size(); ++p) {
      const GearPair& gp = pairs[p];
      const std::string where = "gear pair " + std::to_string(p) + " (joint " + std::to_string(gp.driven) +
                                " driven by joint " + std::to_string(gp.driver) + "): ";
      auto one_dof = [&](int i) { return m.joint[i].nv() == 1 && m.joint[i].nq() == 1; };
      if (gp.driven < 0 || gp.driven >= m.nb || gp.driver < 0 || gp.driver >= m.nb)
        throw std::invalid_argument(where + "no such joint; the model has joints 0.." + std::to_string(m.nb - 1));
      if (gp.driven == gp.driver) throw std::invalid_argument(where + "a joint cannot drive itself");
      if (!one_dof(gp.driven) || !one_dof(gp.driver))
        throw std::invalid_argument(where + "both joints must have one degree of freedom (revolute, prismatic or "
                                            "helical); a gear relates two scalar joint variables");
      if (!std::isfinite(gp.ratio) || gp.ratio == 0)
        throw std::invalid_argument(where + "the ratio must be finite and nonzero, not " + std::to_string(gp.ratio));
      if (driven_by[gp.driven] >= 0)
        throw std::invalid_argument(where + "joint " + std::to_string(gp.driven) + " is already driven by joint " +
                                    std::to_string(driven_by[gp.driven]));
      driven_by[gp.driven] = gp.driver;
      ratio_of[gp.driven] = gp.ratio;
    }
    for (std::size_t p = 0; p < pairs.size(); ++p)
      if (driven_by[pairs[p].driver] >= 0)
        throw std::invalid_argument("gear pair " + std::to_string(p) + ": the driver, joint " +
                                    std::to_string(pairs[p].driver) + ", is itself driven by joint " +
                                    std::to_string(driven_by[pairs[p].driver]) +
                                    "; give the driven joint the composed ratio on the first driver instead");
    g.col.assign(m.nv, -1);
    g.unit.assign(m.nv, 1);
    g.ratio.assign(m.nv, S(1));
    g.y_of_q.assign(m.nq, -1);
    g.driver_q.assign(m.nq, -1);
    g.ratio_q.assign(m.nq, S(1));
    for (int i = 0; i < m.nb; ++i) {  // undriven joints first: their variables are the columns
      if (driven_by[i] >= 0) continue;
      for (int k = 0; k < m.joint[i].nv(); ++k) {
        g.col[m.v_idx[i] + k] = g.ny++;
        g.v_of_y.push_back(m.v_idx[i] + k);
      }
      for (int k = 0; k < m.joint[i].nq(); ++k) g.y_of_q[m.q_idx[i] + k] = g.nyq++;
    }
    for (int i = 0; i < m.nb; ++i) {
      const int d = driven_by[i];
      if (d < 0) continue;
      g.col[m.v_idx[i]] = g.col[m.v_idx[d]];
      g.ratio[m.v_idx[i]] = scalar_cast<S>(ratio_of[i]);
      g.unit[m.v_idx[i]] = ratio_of[i] == 1.0;
      g.driver_q[m.q_idx[i]] = m.q_idx[d];
      g.ratio_q[m.q_idx[i]] = g.ratio[m.v_idx[i]];
    }
    return g;
  }

  // q = gamma(y): the undriven coordinates copied, each driven one ratio times its driver's.
  void gamma(const VecX<S>& y, VecX<S>& q) const {
    for (std::size_t c = 0; c < y_of_q.size(); ++c)
      if (y_of_q[c] >= 0) q[c] = y[y_of_q[c]];
    for (std::size_t c = 0; c < driver_q.size(); ++c)
      if (driver_q[c] >= 0) q[c] = ratio_q[c] * q[driver_q[c]];
  }
  // qd = G yd.
  void expand_velocity(const VecX<S>& yd, VecX<S>& qd) const {
    for (std::size_t k = 0; k < col.size(); ++k) qd[k] = unit[k] ? yd[col[k]] : S(ratio[k] * yd[col[k]]);
  }
  // The independent coordinates of a q that satisfies the constraints (the inverse of gamma on
  // its image): the undriven entries.
  VecX<S> independent_positions(const VecX<S>& q) const {
    VecX<S> y(nyq);
    for (std::size_t c = 0; c < y_of_q.size(); ++c)
      if (y_of_q[c] >= 0) y[y_of_q[c]] = q[c];
    return y;
  }
  VecX<S> independent_velocities(const VecX<S>& qd) const {
    VecX<S> yd(ny);
    for (int c = 0; c < ny; ++c) yd[c] = qd[v_of_y[c]];
    return yd;
  }
  // G as a dense nv x ny matrix (Eq. 9.26's G = d gamma / d y).
  MatX<S> dense_G() const {
    MatX<S> G = MatX<S>::Zero(static_cast<Eigen::Index>(col.size()), ny);
    for (std::size_t k = 0; k < col.size(); ++k) G(k, col[k]) = ratio[k];
    return G;
  }
};

}  // namespace rbd
