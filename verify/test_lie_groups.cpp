// Gate 1 for the Lie-group closed forms (algorithms/core/so3.hpp, se3.hpp): each one, in the
// 50-digit Reference scalar, against the power series / matrix exponential of
// reference/lie_series.hpp (an independent computation from the definitions), at rotation
// angles from 0 to pi, on both sides of every small-angle branch. Required: >= 40 digits
// (both sides carry ~50; the series lose < 3 digits to scaling and squaring at |M| <= 10,
// a wrong formula or branch differs at O(1) or at the branch's truncation error).
// Also: the seed's printed Eqs. 8, 9, 10 and 11 (Mueller & Terze, seed 004, section 2.1)
// evaluated as printed, to say which are right.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <boost/math/constants/constants.hpp>

#include "core/se3.hpp"
#include "reference/lie_series.hpp"
#include "verify/support/metrics.hpp"

namespace test_lie_groups {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using rbd::verify::exact_digits;
namespace O = rbd::oracle::lie;

namespace {
using R = Reference;
constexpr double kDigits = 40.0;

template <class A, class B> double digits(const A& a, const B& b) {
  const MatX<R> x = a, y = b;
  return exact_digits(rbd::verify::rel_diff(x, y));
}

// Angles on both sides of each branch threshold (Reference: x_c ~ 0.2 for C, G and the
// derivatives; 1e-2 for A, B), down to 0 and up to pi.
std::vector<R> angles() {
  const R pi = boost::math::constants::pi<R>();
  return {R(0), R(1e-30), R(1e-12), R(1e-5), R(0.01), R(0.09), R(0.11), R(0.3), R(0.44), R(0.46),
          R(1), R(1.9), R(2.1), R(2.5), R(3), pi - R(1e-6), pi - R(1e-20), pi};
}
Vec3<R> unit_axis(int i) {
  Vec3<R> u(R(0.3) + R(i) / R(7), R(-0.8), R(0.5) - R(i) / R(11));
  return u / u.norm();
}
Vec6<R> twist(const R& t, int i) {
  Vec6<R> X;
  X << unit_axis(i) * t, Vec3<R>(R(0.7), R(-1.1) + R(i) / R(5), R(0.4));
  return X;
}
}  // namespace

TEST_CASE("SO(3) exp, dexp, dexp^-1, log, Ad, ad agree with the series to 40 digits, t in [0, pi]", "[lie]") {
  int i = 0;
  for (const R& t : angles()) {
    const Vec3<R> w = unit_axis(i++) * t;
    const O::M3 W = O::cross_matrix(w);
    const O::M3 Rs = O::expm<3>(W);
    const O::M3 Ds = O::dexp_series<3>(W);
    INFO("t = " << static_cast<double>(t));
    CHECK(digits(so3::exp<R>(w), Rs) >= kDigits);
    CHECK(digits(so3::dexp<R>(w), Ds) >= kDigits);
    CHECK(digits(so3::dexp_inv<R>(w) * Ds, Mat3<R>::Identity()) >= kDigits);
    CHECK(digits(so3::hat<R>(w), W) >= kDigits);
    CHECK(digits(so3::vee<R>(W), w) >= kDigits);
    // log: exp(log R) = R for every angle (at t = pi the sign of the axis is not unique),
    // and log(exp w) = w below pi.
    CHECK(digits(O::expm<3>(O::cross_matrix(so3::log<R>(Rs))), Rs) >= kDigits);
    if (t < R(3.1)) CHECK(digits(so3::log<R>(Rs), w) >= kDigits - 1);  // cond of log ~ 1/sin(t/2) <= 1.0
    // Ad_R w' = R w' is the conjugation R w'^ R^T; ad_w = w^.
    const Vec3<R> w2(R(0.2), R(0.9), R(-0.4));
    CHECK(digits(so3::Ad<R>(Rs) * w2, Vec3<R>(so3::vee<R>(Rs * O::cross_matrix(w2) * Rs.transpose()))) >= kDigits);
    CHECK(digits(so3::ad<R>(w) * w2, w.cross(w2)) >= kDigits);
  }
}

TEST_CASE("SE(3) exp, dexp, dexp^-1, log, Ad, ad agree with the series to 40 digits, t in [0, pi]", "[lie]") {
  int i = 0;
  for (const R& t : angles()) {
    const Vec6<R> X = twist(t, i++);
    const O::M4 Cs = O::expm<4>(O::twist_matrix(X));
    const O::M6 ads = O::ad_commutator(X);
    const O::M6 Ds = O::dexp_series<6>(ads);
    INFO("t = " << static_cast<double>(t));
    CHECK(digits(se3::exp<R>(X).matrix(), Cs) >= kDigits);
    CHECK(digits(se3::ad<R>(X), ads) >= kDigits);
    CHECK(digits(se3::dexp<R>(X), Ds) >= kDigits);
    CHECK(digits(se3::dexp_inv<R>(X) * Ds, Mat6<R>::Identity()) >= kDigits);
    CHECK(digits(se3::hat<R>(X), O::twist_matrix(X)) >= kDigits);
    CHECK(digits(se3::vee<R>(O::twist_matrix(X)), X) >= kDigits);
    se3::Pose<R> C{Cs.block<3, 3>(0, 0), Cs.block<3, 1>(0, 3)};
    CHECK(digits(O::expm<4>(O::twist_matrix(se3::log<R>(C))), Cs) >= kDigits);
    if (t < R(3.1)) CHECK(digits(se3::log<R>(C), X) >= kDigits - 1);
    CHECK(digits(se3::Ad<R>(C), O::Ad_conjugation(Cs)) >= kDigits);
  }
}

TEST_CASE("the seed's printed Eq. 9 is not a rotation; Eqs. 8, 10, 11 are right", "[lie][seed004]") {
  using std::cos;
  using std::sin;
  for (const R& t : {R(0.5), R(1.3), R(2.9)}) {
    const Vec6<R> X = twist(t, 3);
    const Vec3<R> w = ang(X), v = lin(X);
    const R th = w.norm();
    const O::M3 W = O::cross_matrix(w);
    const O::M3 Rs = O::expm<3>(W);
    // Eq. 9 as printed: I + sin t/t w^ + (1 - cos t)/t w^2  (t instead of t^2 below the w^2 term).
    const O::M3 printed9 = O::M3::Identity() + sin(th) / th * W + (1 - cos(th)) / th * W * W;
    const double d9 = digits(printed9, Rs);
    CHECK(d9 < 2);  // O(1) wrong unless t = 1
    CHECK(static_cast<double>((printed9.transpose() * printed9 - O::M3::Identity()).norm()) > 1e-2);
    // ... and with t^2 it is right (the form so3::exp implements).
    CHECK(digits(O::M3(O::M3::Identity() + sin(th) / th * W + (1 - cos(th)) / (th * th) * W * W), Rs) >= kDigits);
    // Eq. 8: translation (I - exp w^)(w x v)/t^2 + h w, h = w.v/t^2.
    const Vec3<R> p8 = (O::M3::Identity() - Rs) * w.cross(v) / (th * th) + w.dot(v) / (th * th) * w;
    CHECK(digits(p8, Vec3<R>(O::expm<4>(O::twist_matrix(X)).block<3, 1>(0, 3))) >= kDigits);
    // Eq. 10: dexp^-1 on SE(3) as a polynomial in ad_X.
    const O::M6 ad = O::ad_commutator(X), ad2 = ad * ad, ad4 = ad2 * ad2;
    const O::M6 printed10 = O::M6::Identity() - ad / 2 + (2 / (th * th) + (th + 3 * sin(th)) / (4 * th * (cos(th) - 1))) * ad2 +
                            (1 / (th * th * th * th) + (th + sin(th)) / (4 * th * th * th * (cos(th) - 1))) * ad4;
    CHECK(digits(printed10 * O::dexp_series<6>(ad), O::M6::Identity()) >= kDigits - 4);  // 1/t^4 cancellation: ~4 digits at t = 0.5
    // Eq. 11: dexp^-1 on SO(3).
    const O::M3 printed11 = O::M3::Identity() - W / 2 + (1 - th / 2 * cos(th / 2) / sin(th / 2)) * W * W / (th * th);
    CHECK(digits(printed11 * O::dexp_series<3>(W), O::M3::Identity()) >= kDigits);
  }
}

TEST_CASE("the closed forms run in double and in the counting scalar with the same values", "[lie]") {
  Vec6<double> X;
  X << 0.3, -1.1, 0.6, 0.7, -0.2, 0.4;
  Vec6<Counted> Xc = X.cast<Counted>();
  OpCounts ops = count_ops([&] { (void)se3::dexp_inv<Counted>(Xc); });
  CHECK(ops.m() > 0);
  const Mat6<double> a = se3::dexp_inv<double>(X);
  const Mat6<Counted> b = se3::dexp_inv<Counted>(Xc);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) CHECK(std::abs(a(i, j) - b(i, j).value()) < 1e-15);  // as below
  const se3::Pose<Counted> C = se3::exp<Counted>(Xc);
  CHECK(std::abs(se3::exp<double>(X).r.x() - C.r.x().value()) < 1e-15);  // same ops; Eigen may vectorise double's sums in another order
  CHECK((se3::log<double>(se3::exp<double>(X)) - X).norm() < 1e-14);  // ~ 10 roundings of O(1) terms
  const Vec6<Counted> Lc = se3::log<Counted>(C);
  CHECK(std::abs(Lc(0).value() - X(0)) < 1e-14);  // log in the counting scalar (atan2 uncounted)
}

}  // namespace test_lie_groups
