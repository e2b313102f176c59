#pragma once
// Featherstone Table A.4 (App. A.3): the cost of each spatial-arithmetic operation on compact
// data structures, against rbdlab's own implementation of it (core/spatial.hpp,
// core/transform.hpp, core/inertia.hpp, and core/compact_articulated_inertia.hpp for alpha I^A,
// I^A_1 + I^A_2, I^A + I, X* I X^-1, X* I^A X^-1 and X^T I^A X on the compact articulated
// inertia abi(lt(M), H, lt(I)) of Table A.3), counted by the counting scalar. Every row is
// provided. The "I^A v" row counts a plain 6x6 product, which costs what the table says.
//
// Each row says whether rbdlab's count is the book's. A difference is a fact about rbdlab's
// implementation, not an error of the book, so it is explained here and not filed as a
// discrepancy. verify/test_table_a_4.cpp asserts every row: the book's figure where rbdlab
// matches it, rbdlab's own figure (and that an explanation is given) where it does not; it also
// checks each compact operation against its 6x6 definition in Reference.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/counting_scalar.hpp"
#include "core/compact_articulated_inertia.hpp"
#include "core/inertia.hpp"

namespace rbd::verify {

struct TableA4Row {
  std::string operation;  // as printed
  int book_m, book_a;
  std::function<OpCounts()> count;  // empty: rbdlab has no such operation
  std::string why_different;         // when the counts differ
};

inline nlohmann::json table_a_4() {
  using C = Counted;
  // Generic operands (the counts do not depend on the values).
  Vec6<C> v1, v2, f;
  for (int k = 0; k < 6; ++k) {
    v1[k] = C(0.1 * (k + 1));
    v2[k] = C(0.7 - 0.05 * k);
    f[k] = C(1.3 + 0.2 * k);
  }
  Mat3<C> E, E2;
  E << C(0.36), C(0.48), C(-0.8), C(-0.8), C(0.6), C(0), C(0.48), C(0.64), C(0.6);
  E2 = E.transpose();
  const Transform<C> X1{E, Vec3<C>(C(0.1), C(-0.2), C(0.3))}, X2{E2, Vec3<C>(C(-0.4), C(0.5), C(0.6))};
  Mat3<C> Ic;
  Ic << C(0.3), C(0.01), C(0.02), C(0.01), C(0.25), C(0.03), C(0.02), C(0.03), C(0.2);
  const Inertia<C> I1 = Inertia<C>::from_com(C(1.5), Vec3<C>(C(0.1), C(0.2), C(0.3)), Ic);
  const Inertia<C> I2 = Inertia<C>::from_com(C(0.5), Vec3<C>(C(-0.1), C(0.4), C(0.2)), Ic);
  Mat6<C> IA = I1.matrix();
  Mat6<C> IA2 = IA;  // a general symmetric articulated inertia (the counts do not depend on it)
  for (int k = 0; k < 6; ++k)
    for (int l = 0; l <= k; ++l) IA2(k, l) = IA2(l, k) = IA2(k, l) + C(0.01 * (k + 2 * l + 1));
  const Abi<C> A1 = Abi<C>::from_matrix(IA), A2 = Abi<C>::from_matrix(IA2);
  Abi<C> outA;
  const C alpha(1.7);
  Vec6<C> out6;
  Inertia<C> outI;
  Transform<C> outX;
  C out1;

  const std::vector<TableA4Row> rows = {
      {"alpha v", 6, 0, [&] { return count_ops([&] { out6 = alpha * v1; }); }, ""},
      {"alpha f", 6, 0, [&] { return count_ops([&] { out6 = alpha * f; }); }, ""},
      {"alpha I", 10, 0, [&] { return count_ops([&] { outI = alpha * I1; }); }, ""},
      {"alpha I^A", 21, 0, [&] { return count_ops([&] { outA = alpha * A1; }); }, ""},
      {"v1 + v2", 0, 6, [&] { return count_ops([&] { out6 = v1 + v2; }); }, ""},
      {"f1 + f2", 0, 6, [&] { return count_ops([&] { out6 = f + v2; }); }, ""},
      {"I1 + I2", 0, 10, [&] { return count_ops([&] { outI = I1 + I2; }); },
       "rbdlab's Inertia keeps the whole 3x3 Ibar (symmetric by construction), so the sum adds 9 entries, not "
       "the lower triangle's 6"},
      {"I^A_1 + I^A_2", 0, 21, [&] { return count_ops([&] { outA = A1 + A2; }); }, ""},
      {"I^A_1 + I_2", 0, 15, [&] { return count_ops([&] { outA = A1 + I2; }); }, ""},
      {"v . f", 6, 5, [&] { return count_ops([&] { out1 = v1.dot(f); }); }, ""},
      {"v1 x v2", 18, 12, [&] { return count_ops([&] { out6 = crm<C>(v1, v2); }); }, ""},
      {"v x* f", 18, 12, [&] { return count_ops([&] { out6 = crf<C>(v1, f); }); }, ""},
      {"I v", 24, 18, [&] { return count_ops([&] { out6 = I1 * v1; }); }, ""},
      {"I^A v", 36, 30, [&] { return count_ops([&] { out6 = IA * v1; }); }, ""},
      {"X1 X2", 33, 24, [&] { return count_ops([&] { outX = X1 * X2; }); },
       "rbdlab forms all nine entries of E1 E2 (27m + 18a); the printed figure is what forming two columns "
       "and the third as their cross product costs (18m + 12a + 6m + 3a), which a rotation allows; with "
       "E2^T r1 + r2 (9m + 9a) both totals follow"},
      {"X^-1", 9, 6, [&] { return count_ops([&] { outX = X1.inverse(); }); }, ""},
      {"X v", 24, 18, [&] { return count_ops([&] { out6 = X1.apply(v1); }); }, ""},
      {"X^-1 v", 24, 18, [&] { return count_ops([&] { out6 = X1.apply_inverse(v1); }); }, ""},
      {"X* f", 24, 18, [&] { return count_ops([&] { out6 = X1.apply_force(f); }); }, ""},
      {"X^T f", 24, 18, [&] { return count_ops([&] { out6 = X1.apply_transpose(f); }); }, ""},
      {"X* I X^-1", 52, 56, [&] { return count_ops([&] { outI = transform(X1, I1); }); }, ""},
      {"X^T I X", 52, 56, [&] { return count_ops([&] { outI = transform_transpose(X1, I1); }); },
       "rbdlab's X^T I X (core/inertia.hpp, the one its algorithms use) computes E^T Ibar E as two general 3x3 "
       "products on the upper triangle and forms the parallel-axis terms as one symmetric matrix, 66m + 54a; the "
       "book's figure assumes section A.5's E M E^T trick (28m + 29a; rbdlab's X* I X^-1 uses it, "
       "core/compact_articulated_inertia.hpp), which saves multiplications at the price of more additions and "
       "relies on E E^T = 1 and det E = 1"},
      {"X* I^A X^-1", 137, 137, [&] { return count_ops([&] { outA = transform(X1, A2); }); }, ""},
      {"X^T I^A X", 137, 137, [&] { return count_ops([&] { outA = transform_transpose(X1, A2); }); }, ""},
  };
  nlohmann::json out = nlohmann::json::array();
  for (const TableA4Row& r : rows) {
    nlohmann::json j{{"operation", r.operation}, {"book_m", r.book_m}, {"book_a", r.book_a}};
    if (r.count) {
      const OpCounts c = r.count();
      j["rbdlab_m"] = c.m();
      j["rbdlab_a"] = c.a();
      j["same_as_book"] = c.m() == static_cast<std::uint64_t>(r.book_m) && c.a() == static_cast<std::uint64_t>(r.book_a);
      if (!r.why_different.empty()) j["why_different"] = r.why_different;
    } else {
      j["provided"] = false;
    }
    out.push_back(j);
  }
  return out;
}

// The rows rbdlab provides, in reproductions.json's record format (the Reproductions page).
inline nlohmann::json table_a_4_reproductions(const nlohmann::json& table) {
  auto cost = [](long m, long a) {
    if (m && a) return std::to_string(m) + "m + " + std::to_string(a) + "a";
    return m ? std::to_string(m) + "m" : std::to_string(a) + "a";
  };
  nlohmann::json rep = nlohmann::json::array();
  for (const auto& r : table) {
    if (!r.contains("rbdlab_m")) continue;
    nlohmann::json j{{"quantity", "cost of " + r["operation"].get<std::string>() + " (compact form)"},
                     {"source", "Featherstone Table A.4"},
                     {"published", cost(r["book_m"].get<long>(), r["book_a"].get<long>())},
                     {"rbdlab", cost(r["rbdlab_m"].get<long>(), r["rbdlab_a"].get<long>())},
                     {"agree", r["same_as_book"].get<bool>()}};
    if (r.contains("why_different")) j["why_different"] = r["why_different"];
    rep.push_back(j);
  }
  return rep;
}

}  // namespace rbd::verify
