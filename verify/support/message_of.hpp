#pragma once
// For refusal tests: the message of the exception of type E that f throws ("(no exception)" if
// none; an exception of another type propagates and fails the test case).
#include <string>

namespace rbd::verify {

template <class E, class F> std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace rbd::verify
