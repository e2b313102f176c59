#pragma once
// The 64 masks of the "lock" constraint (seed 001, section 6 and Table 1). Row k of the
// six-row lock {C_x, C_y, C_z, C_theta_i, C_theta_j, C_theta_k} (Eq. 72) is active when bit k
// of the mask is set; a joint is a mask. The table names eleven of them; section 6.1 adds the
// spherical joint and mask 0 (no row) is the free joint. Which mask matches which joint of
// Featherstone's Table 4.1 is listed here too (the null-space gate in
// verify/test_constraints.cpp compares it with jcalc's motion subspace).
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace rbd {

constexpr int kLockRows = 6;
constexpr int kLockMasks = 64;

enum LockRow : unsigned { kCx = 1u, kCy = 2u, kCz = 4u, kCthI = 8u, kCthJ = 16u, kCthK = 32u };

// The joints of Table 4.1 that a mask reproduces (the motion subspace of the free marker
// directions is the joint's S, with the joint axis along z of marker S).
enum class LockJoint { None, Fixed, Revolute, Prismatic, Cylindrical, Planar, Spherical, Free };

struct LockMaskName {
  unsigned mask;
  std::string_view name;
  std::string_view source;  // where the seed names it
  LockJoint joint;          // the Table 4.1 joint with the same free directions, if any
};

inline constexpr std::array<LockMaskName, 13> kNamedLockMasks{{
    {kCx | kCy | kCz | kCthI | kCthJ | kCthK, "bolt/glue/fastener (lock)", "Table 1", LockJoint::Fixed},
    {kCx | kCy, "point on line", "Table 1", LockJoint::None},
    {kCz, "point on plane", "Table 1", LockJoint::None},
    {kCz | kCthI | kCthJ, "plane on plane", "Table 1", LockJoint::Planar},
    {kCx | kCy | kCz | kCthI | kCthJ, "revolute", "Table 1, section 6.3", LockJoint::Revolute},
    {kCx | kCy | kCthI | kCthJ, "cylindrical", "Table 1, section 6.4", LockJoint::Cylindrical},
    {kCthI | kCthJ | kCthK, "angular alignment", "Table 1", LockJoint::None},
    {kCx | kCthI | kCthJ | kCthK, "Oldham joint", "Table 1", LockJoint::None},
    {kCx | kCy | kCthI | kCthJ | kCthK, "prismatic", "Table 1, section 6.2", LockJoint::Prismatic},
    {kCx | kCy | kCthK, "Birfield or Rzeppa joint", "Table 1", LockJoint::None},
    {kCx | kCy | kCz | kCthK, "homokinetic joint", "Table 1", LockJoint::None},
    {kCx | kCy | kCz, "spherical", "section 6.1", LockJoint::Spherical},
    {0u, "free (no constraint)", "mask 0", LockJoint::Free},
}};

constexpr bool lock_row_active(unsigned mask, int row) { return ((mask >> row) & 1u) != 0u; }
constexpr int lock_row_count(unsigned mask) { return std::popcount(mask); }

inline const LockMaskName* lock_mask_name(unsigned mask) {
  for (const auto& n : kNamedLockMasks)
    if (n.mask == mask) return &n;
  return nullptr;
}

// Bad input: a mask must use the six bits of Eq. 72 only.
inline void validate_lock_mask(long long mask) {
  if (mask < 0 || mask >= kLockMasks)
    throw std::invalid_argument("lock constraint: mask " + std::to_string(mask) + " is outside 0..63 (six rows, Eq. 72)");
}

}  // namespace rbd
