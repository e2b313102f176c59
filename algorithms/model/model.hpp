#pragma once
// Model of a kinematic tree (Featherstone ch. 4): parent array, joints, tree transforms,
// inertias, gravity. Bodies are numbered 0..nb-1 in an order where parent[i] < i, with
// parent[i] = -1 for a body attached to the fixed base (DESIGN.md section 10).
//
// A Model is built in double through ModelBuilder, validated once, and then cast (exactly)
// to Reference or to the counting scalar. It is immutable after construction: algorithms
// take it by const reference and keep their scratch in a Workspace.
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "core/inertia.hpp"
#include "model/joint.hpp"

namespace rbd {

// Thrown for any invalid model; the message names the problem and the body.
struct ModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a Model's body inertias are (Featherstone section 9.7). Physical: every I[i] is a rigid
// body's (positive mass, positive-definite rotational inertia at the centre of mass, triangle
// inequality), and (mass, com, Icom) describe it; ModelBuilder guarantees this. Dynamically
// equivalent: the I[i] were shifted by Table 9.7's inertias (model/dynamic_equivalence.hpp), so
// the equation of motion is a physical model's, but a body may have zero or negative mass or an
// indefinite inertia by design; I[i] is then authoritative and (mass, com, Icom) are whatever
// of them I[i] defines (com and Icom NaN where the mass is zero). Algorithms that need a rigid
// body's parameters (rnea_lwp's centres of mass, the Lagrangian oracle, inverses of I_i) refuse
// such a model or say in their header that they may fail on it.
enum class InertiaKind { Physical, DynamicallyEquivalent };

template <class S> struct Model {
  std::string name;
  int nb = 0;                       // number of moving bodies N_B
  int nq = 0, nv = 0;               // position and velocity variable counts
  std::vector<std::string> body_name;
  std::vector<int> parent;          // lambda(i), -1 for the base
  std::vector<Joint<S>> joint;      // jtype(i) with its parameters
  std::vector<Transform<S>> Xtree;  // X_T(i): from parent body frame to joint frame F_p
  std::vector<Inertia<S>> I;        // spatial inertia in body coordinates, compact form
  // The same inertia as physical parameters, kept for readers and for independent checks.
  std::vector<S> mass;
  std::vector<Vec3<S>> com;         // centre of mass in body coordinates
  std::vector<Mat3<S>> Icom;        // rotational inertia about the centre of mass
  std::vector<int> q_idx, v_idx;    // where body i's joint variables start in q and in qd
  Vec3<S> gravity = Vec3<S>(S(0), S(0), S(0));  // linear part of a_g in base coordinates
  InertiaKind inertia_kind = InertiaKind::Physical;

  // Spatial gravitational acceleration a_g = [0; g] (section 5.3).
  Vec6<S> a_g() const { return join<S>(Vec3<S>::Zero(), gravity); }
  // Depth of the connectivity tree (number of bodies on the longest base-to-leaf path).
  int depth() const {
    std::vector<int> d(nb, 1);
    int best = 0;
    for (int i = 0; i < nb; ++i) {
      if (parent[i] >= 0) d[i] = d[parent[i]] + 1;
      best = std::max(best, d[i]);
    }
    return best;
  }
  bool all_single_dof() const {
    for (const auto& j : joint) if (!is_single_dof(j.type)) return false;
    return true;
  }

  // Converts to another scalar. A double model is rigid only to rounding (a rotation is
  // orthonormal, an axis unit, to ~1e-16), which 50-digit arithmetic would see as a
  // non-rigid body and which would make exact algorithms disagree at the 16th digit. So the
  // cast returns the exactly rigid model nearest to this one, in T's precision: rotations
  // re-orthonormalised (Newton-Schulz, E <- E (3 - E^T E) / 2, quadratically convergent),
  // axes renormalised, and the spatial inertia recomputed from (mass, com, Icom) in T.
  // The double model differs from it by about one ulp per entry. A dynamically equivalent
  // model's I[i] are not functions of (mass, com, Icom), so they are cast entry by entry.
  template <class T> Model<T> cast() const {
    Model<T> m;
    m.name = name; m.nb = nb; m.nq = nq; m.nv = nv; m.inertia_kind = inertia_kind;
    m.body_name = body_name; m.parent = parent; m.q_idx = q_idx; m.v_idx = v_idx;
    auto c = [](const S& x) { return scalar_cast<T>(x); };
    for (int i = 0; i < nb; ++i) {
      Joint<T> j = joint[i].template cast<T>();
      j.axis /= sqrt_(T(j.axis.squaredNorm()));
      m.joint.push_back(j);
      Transform<T> X = Xtree[i].template cast<T>();
      for (int it = 0; it < 4; ++it) X.E = (X.E * (T(3) * Mat3<T>::Identity() - X.E.transpose() * X.E) / T(2)).eval();
      m.Xtree.push_back(X);
      m.mass.push_back(scalar_cast<T>(mass[i]));
      m.com.push_back(com[i].unaryExpr(c));
      m.Icom.push_back(Icom[i].unaryExpr(c));
      m.I.push_back(inertia_kind == InertiaKind::Physical ? Inertia<T>::from_com(m.mass[i], m.com[i], m.Icom[i])
                                                           : I[i].template cast<T>());
    }
    m.gravity = gravity.unaryExpr(c);
    return m;
  }
};

// Builds and validates a Model<double>. Each add_body checks what it can at once, so the
// error points at the offending call; finish() checks what needs the whole tree.
class ModelBuilder {
 public:
  explicit ModelBuilder(std::string model_name) { m_.name = std::move(model_name); }

  ModelBuilder& gravity(const Vec3<double>& g) {
    check_finite(g, "gravity", "model '" + m_.name + "'");
    m_.gravity = g;
    return *this;
  }

  // Adds body number nb with the given parent (-1 = base). Xtree locates the joint frame
  // F_p in the parent's body frame; the body frame is F_s, the joint's successor frame.
  int add_body(const std::string& body_name, int parent, Joint<double> joint,
               const Transform<double>& Xtree, double mass, const Vec3<double>& com,
               const Mat3<double>& Icom) {
    const int i = m_.nb;
    const std::string where = "body " + std::to_string(i) + " '" + body_name + "'";
    if (parent < -1 || parent >= i)
      fail(where + ": parent index " + std::to_string(parent) +
           " is out of order (must be -1 for the base or a body already added, i.e. < " +
           std::to_string(i) + ")");
    check_joint(joint, where);
    check_finite(Xtree.E, "tree transform rotation", where);
    check_finite(Xtree.r, "tree transform translation", where);
    if (!((Xtree.E * Xtree.E.transpose() - Mat3<double>::Identity()).norm() < 1e-12) ||
        !(Xtree.E.determinant() > 0))
      fail(where + ": tree transform rotation is not a proper rotation matrix "
                   "(E E^T must be 1 to 1e-12 and det E = +1)");
    check_inertia(mass, com, Icom, where);

    m_.body_name.push_back(body_name);
    m_.parent.push_back(parent);
    m_.joint.push_back(joint);
    m_.Xtree.push_back(Xtree);
    m_.mass.push_back(mass);
    m_.com.push_back(com);
    // Exactly symmetric (IEEE addition commutes), so every scalar sees a symmetric tensor.
    const Mat3<double> Isym = (Icom + Icom.transpose()) / 2.0;
    m_.Icom.push_back(Isym);
    m_.I.push_back(Inertia<double>::from_com(mass, com, Isym));
    m_.q_idx.push_back(m_.nq);
    m_.v_idx.push_back(m_.nv);
    m_.nq += joint.nq();
    m_.nv += joint.nv();
    ++m_.nb;
    return i;
  }

  Model<double> finish() const {
    if (m_.nb == 0) fail("model '" + m_.name + "' has no bodies");
    return m_;
  }

 private:
  [[noreturn]] static void fail(const std::string& msg) { throw ModelError(msg); }

  template <class M>
  static void check_finite(const M& x, const std::string& what, const std::string& where) {
    for (Eigen::Index k = 0; k < x.size(); ++k)
      if (!std::isfinite(x.data()[k])) fail(where + ": " + what + " contains a non-finite number");
  }

  static void check_joint(Joint<double>& j, const std::string& where) {
    check_finite(j.axis, "joint axis", where);
    if (!std::isfinite(j.pitch)) fail(where + ": helical pitch is not finite");
    const double n = j.axis.norm();
    // A unit axis is required for S to be a unit screw (Table 4.1); 1e-12 allows for the
    // rounding of an axis typed with ~16 digits, and we renormalise exactly afterwards.
    if (std::abs(n - 1.0) > 1e-12) {
      std::ostringstream os;
      os << where << ": joint axis must be a unit vector (norm " << n << ")";
      fail(os.str());
    }
    j.axis /= n;
    j.aligned = -1;
    for (int k = 0; k < 3; ++k)
      if (j.axis == Vec3<double>::Unit(k)) j.aligned = k;
  }

  static void check_inertia(double mass, const Vec3<double>& com, const Mat3<double>& Ic,
                            const std::string& where) {
    if (!std::isfinite(mass)) fail(where + ": mass is not finite");
    if (!(mass > 0)) {
      std::ostringstream os;
      os << where << ": non-positive mass " << mass;
      fail(os.str());
    }
    check_finite(com, "centre of mass", where);
    check_finite(Ic, "rotational inertia", where);
    if ((Ic - Ic.transpose()).cwiseAbs().maxCoeff() > 1e-12 * Ic.cwiseAbs().maxCoeff())
      fail(where + ": rotational inertia is not symmetric");
    Eigen::SelfAdjointEigenSolver<Mat3<double>> es(Ic);
    const Vec3<double> p = es.eigenvalues();  // principal moments, ascending
    if (!(p[0] > 0)) {
      std::ostringstream os;
      os << where << ": rotational inertia at the centre of mass is not positive definite "
         << "(principal moments " << p.transpose() << ")";
      fail(os.str());
    }
    // Triangle inequality of principal moments (a real body's moments satisfy
    // I3 <= I1 + I2). Equality is a lamina; the slack of 16 eps * trace covers the error of
    // the eigenvalue computation, which is a few eps times ||Ic||.
    if (p[2] > p[0] + p[1] + 16 * 2.2e-16 * p.sum()) {
      std::ostringstream os;
      os << where << ": rotational inertia violates the triangle inequality "
         << "(principal moments " << p.transpose() << ", largest exceeds the sum of the others)";
      fail(os.str());
    }
  }

  Model<double> m_;
};

}  // namespace rbd
