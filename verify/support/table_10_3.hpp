#pragma once
// Featherstone Table 10.3's worked example as a traced list (algorithms/symbolic/): p = v x (I v),
// tau_out = p . s with I = diag(I11, I22, I33) and s = (0, 0, 1), written out scalar by scalar in the
// order of the book's assignment-statement file (each 3-term sum left to right). Shared by
// verify/test_symbolic.cpp and verify/symbolic_study.cpp.
#include <string>

#include "core/scalar.hpp"
#include "symbolic/traced_scalar.hpp"

namespace rbd::verify {

template <class V>
symbolic::Tape<V> table_10_3(const V& I11, const V& I22, const V& I33, const Vec3<V>& v_sample) {
  using T = symbolic::Traced<V>;
  symbolic::Tape<V> tape;
  T tau;
  {
    symbolic::Recording<V> on(tape);
    Vec3<T> v;
    for (int i = 0; i < 3; ++i) v[i] = T::input(tape, "v(" + std::to_string(i + 1) + ")", v_sample[i]);
    Mat3<T> I;
    I << T(I11), T(0), T(0), T(0), T(I22), T(0), T(0), T(0), T(I33);
    const Vec3<T> s(T(0), T(0), T(1));
    Vec3<T> tmp;
    for (int r = 0; r < 3; ++r) tmp[r] = I(r, 0) * v[0] + I(r, 1) * v[1] + I(r, 2) * v[2];
    const Vec3<T> p = cross(v, tmp);
    tau = p[0] * s[0] + p[1] * s[1] + p[2] * s[2];
  }
  tape.outputs.push_back(tau.node(tape));
  tape.output_names.push_back("tau_out");
  return tape;
}

}  // namespace rbd::verify
