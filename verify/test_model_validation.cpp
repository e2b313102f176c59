// Bad models get a ModelError that names the problem and the body (issue 2, DESIGN.md 4).
#include <catch2/catch.hpp>

#include <limits>

#include "model/model.hpp"

namespace test_model_validation {  // unity build: this file's names stay its own (verify/CMakeLists.txt)

using namespace rbd;
using Catch::Matchers::Contains;

namespace {
const Mat3<double> kUnitInertia = Mat3<double>::Identity() * 0.1;
ModelBuilder one_body() {
  ModelBuilder b("m");
  b.add_body("base_link", -1, Joint<double>{}, Transform<double>{}, 1.0, Vec3<double>::Zero(), kUnitInertia);
  return b;
}
}  // namespace

TEST_CASE("model validation names the problem and the body", "[model][errors]") {
  SECTION("parent out of order") {
    auto b = one_body();
    CHECK_THROWS_WITH(b.add_body("l2", 1, Joint<double>{}, {}, 1.0, Vec3<double>::Zero(), kUnitInertia),
                      Contains("body 1 'l2'") && Contains("out of order"));
  }
  SECTION("non-positive mass") {
    auto b = one_body();
    CHECK_THROWS_WITH(b.add_body("l2", 0, Joint<double>{}, {}, 0.0, Vec3<double>::Zero(), kUnitInertia),
                      Contains("'l2'") && Contains("non-positive mass"));
  }
  SECTION("inertia not positive definite") {
    auto b = one_body();
    Mat3<double> I = kUnitInertia;
    I(2, 2) = -0.1;
    CHECK_THROWS_WITH(b.add_body("l2", 0, Joint<double>{}, {}, 1.0, Vec3<double>::Zero(), I),
                      Contains("'l2'") && Contains("not positive definite"));
  }
  SECTION("triangle inequality") {
    auto b = one_body();
    const Mat3<double> I = Vec3<double>(0.1, 0.1, 0.5).asDiagonal();
    CHECK_THROWS_WITH(b.add_body("l2", 0, Joint<double>{}, {}, 1.0, Vec3<double>::Zero(), I),
                      Contains("'l2'") && Contains("triangle inequality"));
  }
  SECTION("non-finite numbers") {
    auto b = one_body();
    Vec3<double> c = Vec3<double>::Zero();
    c.y() = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(b.add_body("l2", 0, Joint<double>{}, {}, 1.0, c, kUnitInertia),
                      Contains("'l2'") && Contains("centre of mass") && Contains("non-finite"));
    Transform<double> X;
    X.r.x() = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH(b.add_body("l3", 0, Joint<double>{}, X, 1.0, Vec3<double>::Zero(), kUnitInertia),
                      Contains("'l3'") && Contains("non-finite"));
  }
  SECTION("joint axis not unit") {
    auto b = one_body();
    Joint<double> j{JointType::Revolute, Vec3<double>(1, 1, 0), 0, -1};
    CHECK_THROWS_WITH(b.add_body("l2", 0, j, {}, 1.0, Vec3<double>::Zero(), kUnitInertia),
                      Contains("'l2'") && Contains("unit vector"));
  }
  SECTION("tree transform not a rotation") {
    auto b = one_body();
    Transform<double> X;
    X.E(0, 0) = 2.0;
    CHECK_THROWS_WITH(b.add_body("l2", 0, Joint<double>{}, X, 1.0, Vec3<double>::Zero(), kUnitInertia),
                      Contains("'l2'") && Contains("rotation"));
  }
  SECTION("empty model") { CHECK_THROWS_WITH(ModelBuilder("empty").finish(), Contains("no bodies")); }
}

TEST_CASE("valid models record index maps and detect aligned axes", "[model]") {
  ModelBuilder b("m");
  b.add_body("a", -1, Joint<double>{JointType::Free, Vec3<double>::UnitZ(), 0, 2}, {}, 1.0, Vec3<double>::Zero(), kUnitInertia);
  b.add_body("b", 0, Joint<double>{JointType::Revolute, Vec3<double>::UnitX(), 0, -1}, {}, 1.0, Vec3<double>::Zero(), kUnitInertia);
  b.add_body("c", 0, Joint<double>{JointType::Spherical, Vec3<double>::UnitZ(), 0, 2}, {}, 1.0, Vec3<double>::Zero(), kUnitInertia);
  const Model<double> m = b.finish();
  CHECK(m.nq == 7 + 1 + 4);
  CHECK(m.nv == 6 + 1 + 3);
  CHECK(m.q_idx == std::vector<int>{0, 7, 8});
  CHECK(m.v_idx == std::vector<int>{0, 6, 7});
  CHECK(m.joint[1].aligned == 0);
  CHECK(m.depth() == 2);
}

}  // namespace test_model_validation
