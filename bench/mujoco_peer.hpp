#pragma once
// MuJoCo as a peer: an rbdlab Model exported to MJCF (cases/mjcf_export.hpp), compiled by
// MuJoCo from memory, with the state and result conversions between the two. Used by the
// benchmark (bench/bench_main.cpp) and by verify/test_mjcf_peer.cpp, so the test checks
// exactly what the benchmark times.
//
// What the peer timings include (and nothing else):
//   inverse dynamics: mj_kinematics + mj_comPos + mj_comVel + mj_rne(flg_acc = 1) -> tau
//                     (MuJoCo's own split of the work; gravity included, no external forces)
//   mass matrix:      mj_kinematics + mj_comPos + mj_crb -> d->qM, MuJoCo's sparse
//                     (tree-structured) storage; the expansion to a dense matrix
//                     (mj_fullM) is NOT timed -- it is done only for the cross-check.
//   forward dynamics: mj_kinematics + mj_comPos + mj_comVel + mj_crb + mj_factorM (sparse
//                     L^T D L of qM) + mj_rne(flg_acc = 0) -> C into qfrc_bias, then
//                     tau - C (nv subtractions) and mj_solveM -> qacc. This is MuJoCo's own
//                     smooth-dynamics path (mj_fwdPosition/mj_fwdVelocity/mj_fwdAcceleration
//                     without collision, constraints, actuators or passive forces).
//   factorization:    mj_factorM (L^T D L of the sparse qM, which mj_crb filled beforehand,
//                     untimed) + mj_solveM -> x = H^-1 tau.
// The state is not copied in the timed loop: run() points d->qpos/qvel/qacc at one of the
// caller's precomputed MuJoCo-ordered arrays (mjData's fields are plain pointers), the way
// rbdlab's variants take their state by reference.
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <mujoco/mujoco.h>

#include "cases/mjcf_export.hpp"
#include "cases/states.hpp"
#include "inverse_dynamics/rnea_spatial.hpp"
#include "mass_matrix/crba.hpp"

namespace rbd::bench {

// Normwise relative agreement required of MuJoCo's tau and H with rbdlab's (rnea_spatial,
// crba) in double, for a model exported with InertiaForm::principal: 32 nv eps. Both sides
// are O(n) recursions over the same doubles (MuJoCo's copy of them differs by ~1 ulp after
// it normalises quaternions), whose normwise rounding errors grow like a small multiple of
// nv eps. verify/test_mjcf_peer.cpp measures (16 states per model) at most 1.1 nv eps on
// GU(7), GU(30) and binary trees of 15 and 63 bodies, and at most 3 nv eps on the two-body
// joint models, so 32 nv eps keeps a margin of >= 10, while any modelling mismatch (a frame,
// an axis, an inertia entry) shows at 1e-3 or more.
inline double peer_tolerance(int nv) { return 32.0 * nv * std::numeric_limits<double>::epsilon(); }

// MuJoCo-ordered state arrays for one rbdlab state.
struct MujocoState {
  std::vector<mjtNum> qpos, qvel, qacc;
};

class MujocoPeer {
 public:
  // Throws std::invalid_argument when MuJoCo cannot represent the model (a joint it lacks,
  // named in the message, or a chain nested deeper than its XML parser allows) and
  // std::runtime_error when MuJoCo refuses the MJCF for any other reason.
  explicit MujocoPeer(const Model<double>& model, cases::InertiaForm form = cases::InertiaForm::principal)
      : model_(model), xml_(cases::to_mjcf(model, form)) {
    auto vfs = std::make_unique<mjVFS>();  // ~2 MB of file table: on the heap
    mj_defaultVFS(vfs.get());
    const char* fname = "rbdlab_model.xml";
    if (mj_makeEmptyFileVFS(vfs.get(), fname, static_cast<int>(xml_.size())) != 0)
      throw std::runtime_error("MuJoCo: cannot create the in-memory MJCF file");
    const int idx = mj_findFileVFS(vfs.get(), fname);
    std::memcpy(vfs->filedata[idx], xml_.data(), xml_.size());
    char err[1000] = "";
    m_ = mj_loadXML(fname, vfs.get(), err, sizeof err);
    mj_deleteVFS(vfs.get());
    if (!m_) {
      // MuJoCo 2.2.2's XML parser (TinyXML2) refuses elements nested more than 100 deep;
      // MJCF nests a child body inside its parent, so a chain of more than ~97 bodies cannot
      // be written. That is a limit of what MuJoCo can read, not a failed check.
      if (std::strstr(err, "XML_ELEMENT_DEPTH_EXCEEDED"))
        throw std::invalid_argument("MuJoCo's XML parser refuses the body nesting depth " +
                                    std::to_string(model.depth()) + " of '" + model.name +
                                    "' (TinyXML2 allows 100 nested elements)");
      throw std::runtime_error("MuJoCo refused the MJCF of '" + model.name + "': " + err);
    }
    if (err[0]) warning_ = err;
    d_ = mj_makeData(m_);
    own_qpos_ = d_->qpos; own_qvel_ = d_->qvel; own_qacc_ = d_->qacc; own_qM_ = d_->qM;
    if (m_->nv != model.nv || m_->nq != model.nq || m_->nbody != model.nb + 1) {
      const std::string msg = "MuJoCo's model of '" + model.name + "' has nq = " + std::to_string(m_->nq) +
                              ", nv = " + std::to_string(m_->nv) + ", nbody = " + std::to_string(m_->nbody) +
                              " (expected " + std::to_string(model.nq) + ", " + std::to_string(model.nv) + ", " +
                              std::to_string(model.nb + 1) + ")";
      release();
      throw std::runtime_error(msg);
    }
    // Where each rbdlab body's joint variables live in MuJoCo's qpos/qvel.
    for (int i = 0; i < model.nb; ++i) {
      const int b = mj_name2id(m_, mjOBJ_BODY, ("b" + std::to_string(i)).c_str());
      if (b < 0 || m_->body_jntnum[b] < 1) {
        release();
        throw std::runtime_error("MuJoCo's model lost body b" + std::to_string(i) + " or its joint");
      }
      mj_body_.push_back(b);
      qadr_.push_back(m_->jnt_qposadr[m_->body_jntadr[b]]);
      vadr_.push_back(m_->jnt_dofadr[m_->body_jntadr[b]]);
    }
    scratch_.resize(static_cast<std::size_t>(m_->nv) * m_->nv);
    rhs_.resize(static_cast<std::size_t>(m_->nv));
  }
  ~MujocoPeer() { release(); }
  MujocoPeer(const MujocoPeer&) = delete;
  MujocoPeer& operator=(const MujocoPeer&) = delete;

  const mjModel* m() const { return m_; }
  mjData* d() { return d_; }
  const std::string& xml() const { return xml_; }
  const std::string& load_warning() const { return warning_; }
  int mujoco_body(int i) const { return mj_body_[i]; }

  // rbdlab's state as MuJoCo-ordered arrays.
  MujocoState convert(const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd) const {
    const cases::MujocoCoordinates c = cases::to_mujoco_coordinates(model_, q, qd, qdd);
    MujocoState s{std::vector<mjtNum>(m_->nq), std::vector<mjtNum>(m_->nv), std::vector<mjtNum>(m_->nv)};
    for (int i = 0; i < model_.nb; ++i) {
      const int nq = model_.joint[i].nq(), nv = model_.joint[i].nv();
      for (int k = 0; k < nq; ++k) s.qpos[qadr_[i] + k] = c.qpos[model_.q_idx[i] + k];
      for (int k = 0; k < nv; ++k) {
        s.qvel[vadr_[i] + k] = c.qvel[model_.v_idx[i] + k];
        s.qacc[vadr_[i] + k] = c.qacc[model_.v_idx[i] + k];
      }
    }
    return s;
  }

  // Points mjData at a state (no copy). The arrays must outlive the calls that use them.
  void use_state(MujocoState& s) {
    d_->qpos = s.qpos.data();
    d_->qvel = s.qvel.data();
    d_->qacc = s.qacc.data();
  }

  // The timed work (see the header comment). tau_mj has nv entries, in MuJoCo's order.
  void inverse_dynamics(mjtNum* tau_mj) {
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_comVel(m_, d_);
    mj_rne(m_, d_, 1, tau_mj);
  }
  void mass_matrix() {
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_crb(m_, d_);
  }
  // tau_mj and qacc_mj have nv entries, in MuJoCo's order and velocity coordinates.
  void forward_dynamics(const mjtNum* tau_mj, mjtNum* qacc_mj) {
    mj_kinematics(m_, d_);
    mj_comPos(m_, d_);
    mj_comVel(m_, d_);
    mj_crb(m_, d_);
    mj_factorM(m_, d_);
    mj_rne(m_, d_, 0, d_->qfrc_bias);
    for (int k = 0; k < m_->nv; ++k) rhs_[k] = tau_mj[k] - d_->qfrc_bias[k];
    mj_solveM(m_, d_, qacc_mj, rhs_.data(), 1);
  }

  // H in MuJoCo's sparse form (qM, nM entries) for a configuration, untimed.
  std::vector<mjtNum> sparse_H(const VecX<double>& q) {
    const VecX<double> z = VecX<double>::Zero(model_.nv);
    MujocoState s = convert(q, z, z);
    use_state(s);
    mass_matrix();
    restore_state();
    return std::vector<mjtNum>(d_->qM, d_->qM + m_->nM);
  }
  // Points d->qM at a precomputed sparse H (no copy; see use_state).
  void use_sparse_H(std::vector<mjtNum>& qM) { d_->qM = qM.data(); }
  // x = H^-1 b, both in MuJoCo's order and coordinates, with H in d->qM.
  void factor_and_solve(const mjtNum* b_mj, mjtNum* x_mj) {
    mj_factorM(m_, d_);
    mj_solveM(m_, d_, x_mj, b_mj, 1);
  }
  // Untimed, for the checks: MuJoCo's solution of H(q) x = tau in rbdlab's order and
  // coordinates (H = T^T H_mj T and tau = T^T tau_mj, so x = T^-1 x_mj).
  VecX<double> solve(const VecX<double>& q, const VecX<double>& tau) {
    std::vector<mjtNum> qM = sparse_H(q);
    use_sparse_H(qM);
    const std::vector<mjtNum> b = convert_tau(q, tau);
    std::vector<mjtNum> x(static_cast<std::size_t>(m_->nv));
    factor_and_solve(b.data(), x.data());
    restore_state();
    VecX<double> xm(model_.nv);
    gather(x.data(), xm);
    return mujoco_velocity_map(q).partialPivLu().solve(xm);
  }

  // rbdlab's generalized forces in MuJoCo's order and velocity coordinates: since
  // tau = T^T tau_mujoco (cases/mjcf_export.hpp), tau_mujoco = T^-T tau.
  std::vector<mjtNum> convert_tau(const VecX<double>& q, const VecX<double>& tau) const {
    const VecX<double> t = mujoco_velocity_map(q).transpose().partialPivLu().solve(tau);
    std::vector<mjtNum> out(static_cast<std::size_t>(m_->nv));
    for (int i = 0; i < model_.nb; ++i)
      for (int k = 0; k < model_.joint[i].nv(); ++k) out[vadr_[i] + k] = t[model_.v_idx[i] + k];
    return out;
  }
  // Untimed, for the checks: MuJoCo's qacc for rbdlab's (q, qd, tau), in MuJoCo's order and
  // coordinates; compare with convert(q, qd, qdd).qacc for the qdd that produced tau.
  std::vector<mjtNum> qacc(const VecX<double>& q, const VecX<double>& qd, const VecX<double>& tau) {
    MujocoState s = convert(q, qd, VecX<double>::Zero(model_.nv));
    use_state(s);
    const std::vector<mjtNum> t = convert_tau(q, tau);
    std::vector<mjtNum> a(static_cast<std::size_t>(m_->nv));
    forward_dynamics(t.data(), a.data());
    restore_state();
    return a;
  }

  // Untimed conveniences for the checks: results in rbdlab's order and coordinates.
  VecX<double> tau(const VecX<double>& q, const VecX<double>& qd, const VecX<double>& qdd) {
    MujocoState s = convert(q, qd, qdd);
    use_state(s);
    std::vector<mjtNum> t(m_->nv);
    inverse_dynamics(t.data());
    restore_state();
    VecX<double> tm(model_.nv);
    gather(t.data(), tm);
    return mujoco_velocity_map(q).transpose() * tm;
  }
  MatX<double> H(const VecX<double>& q) {
    const VecX<double> z = VecX<double>::Zero(model_.nv);
    MujocoState s = convert(q, z, z);
    use_state(s);
    mass_matrix();
    restore_state();
    mj_fullM(m_, scratch_.data(), d_->qM);
    MatX<double> Hm(model_.nv, model_.nv);
    for (int i = 0; i < model_.nb; ++i)
      for (int j = 0; j < model_.nb; ++j)
        for (int a = 0; a < model_.joint[i].nv(); ++a)
          for (int b = 0; b < model_.joint[j].nv(); ++b)
            Hm(model_.v_idx[i] + a, model_.v_idx[j] + b) = scratch_[(vadr_[i] + a) * m_->nv + vadr_[j] + b];
    const MatX<double> T = mujoco_velocity_map(q);
    return T.transpose() * Hm * T;
  }
  void restore_state() {
    d_->qpos = own_qpos_;
    d_->qvel = own_qvel_;
    d_->qacc = own_qacc_;
    d_->qM = own_qM_;
  }

 private:
  MatX<double> mujoco_velocity_map(const VecX<double>& q) const { return cases::mujoco_velocity_map(model_, q); }
  void gather(const mjtNum* x_mj, VecX<double>& x) const {
    for (int i = 0; i < model_.nb; ++i)
      for (int k = 0; k < model_.joint[i].nv(); ++k) x[model_.v_idx[i] + k] = x_mj[vadr_[i] + k];
  }
  void release() {
    if (d_) {
      restore_state();
      mj_deleteData(d_);
      d_ = nullptr;
    }
    if (m_) {
      mj_deleteModel(m_);
      m_ = nullptr;
    }
  }

  Model<double> model_;
  std::string xml_, warning_;
  mjModel* m_ = nullptr;
  mjData* d_ = nullptr;
  mjtNum *own_qpos_ = nullptr, *own_qvel_ = nullptr, *own_qacc_ = nullptr, *own_qM_ = nullptr;
  std::vector<int> mj_body_, qadr_, vadr_;
  std::vector<mjtNum> scratch_, rhs_;
};

// How far MuJoCo's result is from rbdlab's on one state (normwise relative) and the
// first-order bound it is held to; the benchmark's pre-timing check and
// verify/test_mjcf_peer.cpp both call these, so the test checks what the benchmark enforces.
struct PeerDifference {
  double rel = 0, bound = 0;
};

namespace detail {
struct SpectrumOfH {
  double norm2, cond2;  // largest eigenvalue, and largest / smallest, of the CRBA's H in double
};
inline SpectrumOfH spectrum_of_H(const Model<double>& m, const VecX<double>& q, Workspace<double>& ws,
                                 MatX<double>& H) {
  H = MatX<double>::Zero(m.nv, m.nv);
  Crba::run<double>(m, q, H, ws);
  const VecX<double> ev = Eigen::SelfAdjointEigenSolver<MatX<double>>(H, Eigen::EigenvaluesOnly).eigenvalues();
  return {ev[m.nv - 1], ev[m.nv - 1] / ev[0]};
}
}  // namespace detail

// Forward dynamics: MuJoCo must invert rbdlab's inverse dynamics. tau = rnea_spatial(q, qd,
// qdd), then MuJoCo's qacc for that tau against qdd in MuJoCo's coordinates. Both sides see
// H, tau and C to ~peer_tolerance = eta relative (the tau and H cross-checks). MuJoCo's qacc
// solves (H + dH) qacc = (tau + dtau) - (C + dC) exactly for such perturbations, so to first
// order (as in verify/test_forward_dynamics_identities.cpp)
//   |qacc - qdd| / |qdd| <= cond2(H) eta (1 + (|tau| + |C|) / (|H|_2 |qdd|)),
// the last factor counting the cancellation in tau - C.
inline PeerDifference forward_dynamics_difference(MujocoPeer& P, const Model<double>& m, const cases::State& x,
                                                  Workspace<double>& ws) {
  VecX<double> tau(m.nv), C(m.nv);
  RneaSpatial::run<double>(m, x.q, x.qd, x.qdd, nullptr, tau, ws);
  RneaSpatial::run<double>(m, x.q, x.qd, VecX<double>::Zero(m.nv), nullptr, C, ws);
  const std::vector<mjtNum> got = P.qacc(x.q, x.qd, tau);
  const std::vector<mjtNum> want = P.convert(x.q, x.qd, x.qdd).qacc;
  const Eigen::Map<const VecX<double>> a(got.data(), m.nv), w(want.data(), m.nv);
  MatX<double> H;
  const detail::SpectrumOfH sp = detail::spectrum_of_H(m, x.q, ws, H);
  return {(a - w).norm() / w.norm(),
          sp.cond2 * peer_tolerance(m.nv) * (1 + (tau.norm() + C.norm()) / (sp.norm2 * w.norm()))};
}

// Factorization: MuJoCo's x = H^-1 tau (its own H, mj_factorM + mj_solveM) against Eigen's
// LDL^T solve of rbdlab's H. The two H agree to peer_tolerance and each solve is backward
// stable to ~4 nv eps < peer_tolerance, so to first order the solutions differ by at most
// cond2(H) * 2 peer_tolerance, relative.
inline PeerDifference solve_difference(MujocoPeer& P, const Model<double>& m, const cases::State& x,
                                       Workspace<double>& ws) {
  MatX<double> H;
  const detail::SpectrumOfH sp = detail::spectrum_of_H(m, x.q, ws, H);
  const VecX<double> want = H.ldlt().solve(x.tau);
  return {(P.solve(x.q, x.tau) - want).norm() / want.norm(), 2 * peer_tolerance(m.nv) * sp.cond2};
}

}  // namespace rbd::bench
