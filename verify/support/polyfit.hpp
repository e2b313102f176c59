#pragma once
// Fits the integer-valued counts c(n) with the lowest-degree polynomial (degree <= 3, with
// coefficients that are multiples of 1/6, as in Table 10.1) that reproduces every point
// exactly. Exactness is checked, not assumed: a count that is not polynomial in n is
// reported with exact = false.
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

namespace rbd::verify {

struct Polynomial {
  std::vector<double> c;  // c[k] multiplies n^k
  bool exact = false;
  double operator()(double n) const {
    double s = 0, p = 1;
    for (double ck : c) { s += ck * p; p *= n; }
    return s;
  }
  std::string to_string() const {
    std::ostringstream os;
    bool first = true;
    for (int k = int(c.size()) - 1; k >= 0; --k) {
      if (c[k] == 0) continue;
      const double v = std::abs(c[k]);
      os << (first ? (c[k] < 0 ? "-" : "") : (c[k] < 0 ? " - " : " + "));
      if (v != 1 || k == 0) os << v;
      if (k >= 1) os << "n";
      if (k >= 2) os << "^" << k;
      first = false;
    }
    return first ? "0" : os.str();
  }
  nlohmann::json to_json() const { return {{"coefficients", c}, {"exact", exact}}; }
};

inline Polynomial fit_exact_polynomial(const std::vector<double>& n, const std::vector<double>& y) {
  Polynomial best;
  for (int deg = 0; deg <= 3; ++deg) {
    Eigen::MatrixXd A(n.size(), deg + 1);
    Eigen::VectorXd b(n.size());
    for (size_t i = 0; i < n.size(); ++i) {
      for (int k = 0; k <= deg; ++k) A(i, k) = std::pow(n[i], k);
      b[i] = y[i];
    }
    const Eigen::VectorXd x = A.colPivHouseholderQr().solve(b);
    Polynomial p;
    for (int k = 0; k <= deg; ++k) p.c.push_back(std::round(x[k] * 6.0) / 6.0);
    p.exact = true;
    for (size_t i = 0; i < n.size(); ++i) p.exact = p.exact && std::abs(p(n[i]) - y[i]) < 1e-6;
    best = p;
    if (p.exact) return p;
  }
  return best;
}

}  // namespace rbd::verify
