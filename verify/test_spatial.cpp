// Compact spatial algebra (App. A) against the dense 6x6 definitions of chapter 2.
// Two genuinely different computations: the compact forms never build a 6x6 matrix.
// Tolerance: entries are O(1)-O(10) and each side does < 100 flops per entry, so 1e-13
// absolute (~450 eps) is a safe round-off bound, while any formula slip is O(1).
#include <catch2/catch.hpp>

#include "core/inertia.hpp"
#include "model/joint.hpp"

namespace test_spatial {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
namespace {
constexpr double kTol = 1e-13;

Mat3<double> some_rotation(double a, double b, double c) {
  return rx<double>(std::cos(a), std::sin(a)) * ry<double>(std::cos(b), std::sin(b)) * rz<double>(std::cos(c), std::sin(c));
}
Transform<double> some_transform(double s) {
  return Transform<double>{some_rotation(0.3 * s, -1.1 * s, 0.7 + s), Vec3<double>(0.4 * s, -0.2, 1.3 - s)};
}
}  // namespace

TEST_CASE("compact Plücker transforms equal their 6x6 matrices (Eq. 2.24, App. A.3)", "[spatial]") {
  const Transform<double> X = some_transform(1.0), Y = some_transform(-0.6);
  Vec6<double> m, f;
  m << 0.3, -1.2, 0.5, 2.0, -0.7, 0.1;
  f << -0.4, 0.9, 1.5, -2.2, 0.3, 0.8;
  const Mat6<double> XM = X.matrix();
  CHECK((X.apply(m) - XM * m).norm() < kTol);
  CHECK((X.apply_inverse(m) - XM.inverse() * m).norm() < kTol);
  CHECK((X.apply_force(f) - XM.inverse().transpose() * f).norm() < kTol);
  CHECK((X.apply_transpose(f) - XM.transpose() * f).norm() < kTol);
  CHECK(((X * Y).matrix() - XM * Y.matrix()).norm() < kTol);
  CHECK((X.inverse().matrix() - XM.inverse()).norm() < kTol);
  // Power is invariant: (X* f) . (X m) = f . m (Eq. 2.26).
  CHECK(std::abs(X.apply_force(f).dot(X.apply(m)) - f.dot(m)) < kTol);
}

TEST_CASE("cross products equal crm/crf matrices and crf = -crm^T (Eqs. 2.31-2.33)", "[spatial]") {
  Vec6<double> v, m;
  v << 0.3, -1.2, 0.5, 2.0, -0.7, 0.1;
  m << -0.4, 0.9, 1.5, -2.2, 0.3, 0.8;
  CHECK((crm<double>(v, m) - crm_matrix<double>(v) * m).norm() < kTol);
  CHECK((crf<double>(v, m) - crf_matrix<double>(v) * m).norm() < kTol);
  CHECK(crm<double>(v, v).norm() < kTol);  // v x v = 0
}

TEST_CASE("compact rigid-body inertia: product, sum and X^T I X (Eq. 2.63, App. A.2)", "[spatial]") {
  Mat3<double> Ic;
  Ic << 0.5, 0.02, -0.01, 0.02, 0.4, 0.03, -0.01, 0.03, 0.3;
  const Inertia<double> I = Inertia<double>::from_com(2.5, Vec3<double>(0.1, -0.3, 0.2), Ic);
  // Eq. 2.63 built by hand: [Ic + m cx cx^T, m cx; m cx^T, m 1].
  const Vec3<double> c(0.1, -0.3, 0.2);
  const Mat3<double> cx = skew<double>(c);
  Mat6<double> dense;
  dense << Ic + 2.5 * cx * cx.transpose(), 2.5 * cx, 2.5 * cx.transpose(), 2.5 * Mat3<double>::Identity();
  CHECK((I.matrix() - dense).norm() < kTol);
  Vec6<double> v;
  v << 0.3, -1.2, 0.5, 2.0, -0.7, 0.1;
  CHECK((I * v - dense * v).norm() < kTol);
  const Transform<double> X = some_transform(0.8);
  CHECK((transform_transpose<double>(X, I).matrix() - X.matrix().transpose() * dense * X.matrix()).norm() < kTol);
  CHECK(((I + I).matrix() - 2 * dense).norm() < kTol);
}

TEST_CASE("jcalc: S spans the joint's velocity, checked by differentiating XJ(q) numerically", "[spatial][joint]") {
  // For a joint whose velocity variables are dq/dt (1- and 2-DoF joints here), the relative
  // velocity satisfies vJ x = -(d XJ/dt) XJ^-1 (Eq. 2.xx: dX/dt = -v x X for a frame moving with
  // velocity v). Central differences with h = 1e-6 have error ~h^2 = 1e-12 on O(1) entries;
  // 1e-8 covers that plus round-off amplified by 1/h (~1e-10).
  for (JointType t : {JointType::Revolute, JointType::Prismatic, JointType::Helical, JointType::Cylindrical}) {
    Joint<double> j{t, Vec3<double>(0.48, -0.6, 0.64), 0.3, -1};
    VecX<double> q(j.nq()), qd(j.nv());
    for (int k = 0; k < j.nq(); ++k) q[k] = 0.4 + 0.3 * k;
    for (int k = 0; k < j.nv(); ++k) qd[k] = -0.7 + 0.5 * k;
    JointKinematics<double> J, Jp, Jm;
    jcalc(j, q, qd, J);
    const double h = 1e-6;
    jcalc(j, VecX<double>(q + h * qd), qd, Jp);
    jcalc(j, VecX<double>(q - h * qd), qd, Jm);
    const Mat6<double> Xdot = (Jp.XJ.matrix() - Jm.XJ.matrix()) / (2 * h);
    INFO(joint_type_name(t));
    CHECK((crm_matrix<double>(J.vJ) + Xdot * J.XJ.matrix().inverse()).norm() < 1e-8);
  }
}

}  // namespace test_spatial
