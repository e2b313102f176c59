// Table A.4 (App. A.3): the compact spatial-arithmetic operations and their costs.
//  a. each compact operation of core/compact_articulated_inertia.hpp and alpha I
//     (core/inertia.hpp) equals its plain 6x6 definition (Transform::matrix(),
//     Inertia::matrix(), Abi::matrix()) in Reference to 1e-40 relative, and in double to
//     ~100 eps; the inertias it returns are exactly symmetric;
//  b. every row of verify/support/table_a_4.hpp is counted as this file's own transcription of
//     the book's table says: the book's figure where rbdlab's count equals it, rbdlab's figure
//     (with the reason in a comment, and a why_different text in the table) where it does not.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>
#include <string>

#include "core/compact_articulated_inertia.hpp"
#include "core/counting_scalar.hpp"
#include "reference/reference_scalar.hpp"
#include "verify/support/table_a_4.hpp"

namespace test_table_a_4 {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

namespace {
using namespace rbd;

// Operands drawn in double and converted exactly; the rotation is built in S itself from S's
// own cos and sin, so that it is orthogonal to S's precision (the A.5 tricks rely on it).
template <class S> struct Draw {
  std::mt19937_64 gen;
  explicit Draw(unsigned seed) : gen(seed) {}
  S u(double lo = -1, double hi = 1) { return S(std::uniform_real_distribution<double>(lo, hi)(gen)); }
  Transform<S> transform() {
    const S a = u(-3, 3), b = u(-3, 3), c = u(-3, 3);
    const Mat3<S> E = rx<S>(cos_(a), sin_(a)) * ry<S>(cos_(b), sin_(b)) * rz<S>(cos_(c), sin_(c));
    return Transform<S>{E, Vec3<S>(u(), u(), u())};
  }
  Mat3<S> symmetric() {
    Mat3<S> A;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j <= i; ++j) A(i, j) = A(j, i) = u();
    return A;
  }
  Mat3<S> general() {
    Mat3<S> A;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A(i, j) = u();
    return A;
  }
  Inertia<S> inertia() {
    const Mat3<S> B = general();
    return Inertia<S>::from_com(u(0.5, 2), Vec3<S>(u(), u(), u()), B * B.transpose() + Mat3<S>::Identity());
  }
  // Any symmetric 6x6 matrix: the identities checked are algebraic, positive definiteness plays no part.
  Abi<S> abi() { return Abi<S>{symmetric(), general(), symmetric()}; }
};

// max |got - want| / max |want|, in double (the exponent is all that matters here).
template <class S, int R, int C>
double rel_err(const Eigen::Matrix<S, R, C>& got, const Eigen::Matrix<S, R, C>& want) {
  return static_cast<double>((got - want).cwiseAbs().maxCoeff() / want.cwiseAbs().maxCoeff());
}

// Each compact operation against its 6x6 definition, over a few draws; tol is relative.
template <class S> void check_against_matrices(unsigned seed, double tol) {
  Draw<S> d(seed);
  for (int k = 0; k < 8; ++k) {
    const Transform<S> X = d.transform();
    const Mat6<S> Xm = X.matrix(), Xinv = X.inverse().matrix();  // Eq. 2.24, 2.26
    REQUIRE(rel_err<S, 6, 6>(Xm * Xinv, Mat6<S>::Identity()) < tol);
    const Mat6<S> Xstar = Xinv.transpose();                      // X* = X^-T (Eq. 2.25)
    const S alpha = d.u(-2, 2);
    const Inertia<S> I = d.inertia();
    const Abi<S> A1 = d.abi(), A2 = d.abi();

    // App. A.5's rotations, the building blocks of the inertia transforms.
    const Mat3<S> As = d.symmetric(), Ag = d.general();
    CHECK(rel_err<S, 3, 3>(rotated_symmetric<S>(X.E, As), X.E * As * X.E.transpose()) < tol);
    CHECK(rel_err<S, 3, 3>(rotated_general<S>(X.E, Ag), X.E * Ag * X.E.transpose()) < tol);

    const Inertia<S> aI = alpha * I;
    CHECK(rel_err<S, 6, 6>(aI.matrix(), Mat6<S>(alpha * I.matrix())) < tol);
    const Inertia<S> XI = transform(X, I);
    CHECK(rel_err<S, 6, 6>(XI.matrix(), Mat6<S>(Xstar * I.matrix() * Xinv)) < tol);
    CHECK(XI.Ibar == XI.Ibar.transpose());
    // X* I X^-1 undone by X^T I X (core/inertia.hpp's, which shares no code with it).
    CHECK(rel_err<S, 6, 6>(transform_transpose(X, XI).matrix(), I.matrix()) < tol);

    const Abi<S> aA = alpha * A1, sA = A1 + A2, sAI = A1 + I;
    CHECK(rel_err<S, 6, 6>(aA.matrix(), Mat6<S>(alpha * A1.matrix())) < tol);
    CHECK(rel_err<S, 6, 6>(sA.matrix(), Mat6<S>(A1.matrix() + A2.matrix())) < tol);
    CHECK(rel_err<S, 6, 6>(sAI.matrix(), Mat6<S>(A1.matrix() + I.matrix())) < tol);
    const Abi<S> XA = transform(X, A1), XtA = transform_transpose(X, A1);
    CHECK(rel_err<S, 6, 6>(XA.matrix(), Mat6<S>(Xstar * A1.matrix() * Xinv)) < tol);
    CHECK(rel_err<S, 6, 6>(XtA.matrix(), Mat6<S>(Xm.transpose() * A1.matrix() * Xm)) < tol);
    for (const Abi<S>* B : {&aA, &sA, &sAI, &XA, &XtA}) {
      CHECK(B->Is == B->Is.transpose());
      CHECK(B->M == B->M.transpose());
    }
    // A rigid-body inertia as an articulated one: both transforms agree with the rigid-body ones.
    CHECK(rel_err<S, 6, 6>(transform(X, Abi<S>::from_inertia(I)).matrix(), XI.matrix()) < tol);
    CHECK(rel_err<S, 6, 6>(transform_transpose(X, Abi<S>::from_inertia(I)).matrix(), transform_transpose(X, I).matrix()) < tol);
  }
}

}  // namespace

TEST_CASE("table A.4: the compact inertia operations equal their 6x6 definitions", "[spatial][table_a_4]") {
  // Reference: ~50 digits, each entry a few hundred roundings of O(1) numbers; a slip is O(1).
  check_against_matrices<Reference>(11, 1e-40);
  // double: the same operations, ~100 eps (the A.5 tricks assume E orthogonal, which a rotation
  // rounded to double is to a few eps).
  check_against_matrices<double>(12, 2e-14);
}

TEST_CASE("table A.4: each row costs the book's figure, or rbdlab's own for the reason given", "[spatial][table_a_4]") {
  struct Expected {
    int book_m, book_a;  // Table A.4, transcribed here independently of table_a_4.hpp
    int m, a;            // rbdlab's count
  };
  const std::map<std::string, Expected> expected = {
      {"alpha v", {6, 0, 6, 0}},
      {"alpha f", {6, 0, 6, 0}},
      {"alpha I", {10, 0, 10, 0}},
      {"alpha I^A", {21, 0, 21, 0}},
      {"v1 + v2", {0, 6, 0, 6}},
      {"f1 + f2", {0, 6, 0, 6}},
      // Inertia::operator+ adds the full 3x3 Ibar: 1 + 3 + 9 = 13a, not 1 + 3 + 6.
      {"I1 + I2", {0, 10, 0, 13}},
      {"I^A_1 + I^A_2", {0, 21, 0, 21}},
      {"I^A_1 + I_2", {0, 15, 0, 15}},
      {"v . f", {6, 5, 6, 5}},
      {"v1 x v2", {18, 12, 18, 12}},
      {"v x* f", {18, 12, 18, 12}},
      {"I v", {24, 18, 24, 18}},
      {"I^A v", {36, 30, 36, 30}},
      // Transform::operator* forms all nine entries of E1 E2 (27m + 18a) where the book forms two
      // columns and crosses them (24m + 15a, App. A.5); with E2^T r1 + r2 (9m + 9a): 36m + 27a.
      {"X1 X2", {33, 24, 36, 27}},
      {"X^-1", {9, 6, 9, 6}},
      {"X v", {24, 18, 24, 18}},
      {"X^-1 v", {24, 18, 24, 18}},
      {"X* f", {24, 18, 24, 18}},
      {"X^T f", {24, 18, 24, 18}},
      {"X* I X^-1", {52, 56, 52, 56}},
      // core/inertia.hpp's transform_transpose: E^T h 9m + 6a, E^T h + m r 3m + 3a, r .* (y + hA)
      // 3m + 3a, Ibar E 27m + 18a, the upper triangle of E^T (Ibar E) 18m + 12a and the
      // parallel-axis terms 6m + 12a: 66m + 54a, without App. A.5's symmetric-rotation trick.
      {"X^T I X", {52, 56, 66, 54}},
      {"X* I^A X^-1", {137, 137, 137, 137}},
      {"X^T I^A X", {137, 137, 137, 137}},
  };
  const nlohmann::json table = rbd::verify::table_a_4();
  CHECK(table.size() == expected.size());
  for (const auto& row : table) {
    const std::string op = row["operation"].get<std::string>();
    INFO(op);
    const auto it = expected.find(op);
    REQUIRE(it != expected.end());
    const Expected& e = it->second;
    CHECK(row["book_m"].get<int>() == e.book_m);
    CHECK(row["book_a"].get<int>() == e.book_a);
    REQUIRE(row.contains("rbdlab_m"));  // every row is provided
    CHECK(row["rbdlab_m"].get<int>() == e.m);
    CHECK(row["rbdlab_a"].get<int>() == e.a);
    const bool same = e.m == e.book_m && e.a == e.book_a;
    CHECK(row["same_as_book"].get<bool>() == same);
    CHECK(row.contains("why_different") == !same);  // a difference is explained, an agreement is not
  }
  // The A.5 rotations on their own (the table's footnote): 28m + 29a for a symmetric matrix;
  // 42m + 37a for a general one, Z_11 computed directly (A.5's 40m + 39a takes it from the trace).
  Draw<double> d(3);
  const Transform<Counted> X = d.transform().cast<Counted>();
  const Mat3<Counted> A = d.general().cast<Counted>();
  const OpCounts cs = count_ops([&] { (void)rotated_symmetric<Counted>(X.E, A); });
  const OpCounts cg = count_ops([&] { (void)rotated_general<Counted>(X.E, A); });
  CHECK(cs.m() == 28); CHECK(cs.a() == 29);
  CHECK(cg.m() == 42); CHECK(cg.a() == 37);
}

}  // namespace test_table_a_4
