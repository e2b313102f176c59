#pragma once
// The articulated-body hybrid-dynamics algorithm, Featherstone Table 9.3 (equations side by side
// in Table 9.2): ABA's lines (Table 7.1) at each forward joint, and at each inverse joint
//   pass 1: c_i = c_J + v_i x v_J + S_i qdd_i            (the given acceleration goes into c_i)
//   pass 2: I^a_i = I^A_i, p^a_i = p^A_i + I^A_i c_i       (Eqs. 9.9-9.10: nothing is projected out)
//   pass 3: a_i = ^iX_lambda a_lambda + c_i, tau_i = S_i^T (I^A_i a_i + p^A_i)   (Eq. 9.6)
// At the forward joints it calls aba.hpp's own per-body steps, so with every joint forward it
// performs exactly ABA's operations in ABA's order (verify/test_hybrid_dynamics.cpp checks the
// results are bit-identical).
#include <string_view>

#include "forward_dynamics/aba.hpp"
#include "hybrid_dynamics/workspace.hpp"

namespace rbd {

struct HybridAba {
  static constexpr std::string_view name = "hybrid_aba";
  static constexpr std::string_view summary = "Articulated-body hybrid dynamics (Featherstone Tables 9.2-9.3)";
  static constexpr std::string_view complexity = "O(n)";
  template <class S> static bool applicable(const Model<S>&) { return true; }

  template <class S>
  static void run(const Model<S>& model, const VecX<S>& q, const VecX<S>& qd, const ForwardJoints& fd, VecX<S>& qdd,
                  VecX<S>& tau, const ExternalForces<S>* f_ext, HybridDynamicsWorkspace<S>& ws) {
    ws.prepare(model, fd);
    // Pass 1, base to tips.
    for (int i = 0; i < model.nb; ++i) {
      aba_detail::velocity_step<S>(model, i, q, qd, f_ext, ws);               // Eqs. 7.34-7.36
      if (!fd[i]) add_motion<S>(model, i, qdd, ws.c[i], ws);                   // c_i += S_i qdd_i (Table 9.2)
    }
    // Pass 2, tips to base.
    for (int i = model.nb - 1; i >= 0; --i) {
      if (fd[i]) {
        aba_detail::articulate_step<S>(model, i, tau, ws);                     // Eqs. 7.43-7.48
      } else if (model.parent[i] >= 0) {
        const Mat6<S>& Ia = ws.IA[i];                                          // Eq. 9.9
        const Vec6<S> pa = ws.pA[i] + Ia * ws.c[i];                            // Eq. 9.10 (c_i holds S qdd)
        aba_detail::congruence_add<S>(ws.Xup[i], Ia, ws.IA[model.parent[i]]);  // += ^lX_i^* I^a ^iX_l
        aba_detail::add_apply_transpose<S>(ws.Xup[i], pa, ws.pA[model.parent[i]]);  // += ^lX_i^* p^a
      }
    }
    // Pass 3, base to tips.
    const Vec3<S> minus_g = -model.gravity;                                    // a_0 = -a_g
    for (int i = 0; i < model.nb; ++i) {
      const int lambda = model.parent[i];
      Vec6<S>& a = ws.a[i];
      if (lambda < 0) {
        a = join<S>(Vec3<S>::Zero(), ws.Xup[i].E * minus_g);                   // ^iX_0 a_0
        if (!fd[i]) a += ws.c[i];                                              //   + c_i (zero at a forward root)
      } else {
        a = ws.Xup[i].apply_plus(ws.a[lambda], ws.c[i]);                       // a'_i, or a_i at an inverse joint
      }
      if (fd[i]) {
        aba_detail::accelerate_step<S>(model, i, qdd, ws);                     // Eqs. 7.49-7.50
      } else {
        const Vec6<S> f = ws.IA[i] * a + ws.pA[i];                             // Eq. 9.6
        const Joint<S>& joint = model.joint[i];
        if (joint.nv() == 1) tau[model.v_idx[i]] = screw_transpose_times(joint, f);
        else tau.segment(model.v_idx[i], joint.nv()) = aba_detail::St_mul<S>(ws.jk[i].S_, f);
      }
    }
  }

 private:
  // m += S_i qdd_i for joint i.
  template <class S>
  static void add_motion(const Model<S>& model, int i, const VecX<S>& qdd, Vec6<S>& m, const HybridDynamicsWorkspace<S>& ws) {
    const Joint<S>& joint = model.joint[i];
    const int vi = model.v_idx[i];
    if (joint.nv() == 1) add_screw_times(joint, qdd[vi], m);
    else m += aba_detail::S_mul<S>(ws.jk[i].S_, VecN<S>(qdd.segment(vi, joint.nv())));
  }
};

}  // namespace rbd
