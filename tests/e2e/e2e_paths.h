// What the end-to-end tests start: the `renju` binary of this build and
// the smallest loop's config.
#ifndef RENJU_TESTS_E2E_E2E_PATHS_H_
#define RENJU_TESTS_E2E_E2E_PATHS_H_

#include <string>

namespace renju::testing {

inline const std::string kRenju = std::string(RENJU_BINARY_DIR) + "/renju";
inline const std::string kE2eConfig =
    std::string(RENJU_SOURCE_DIR) + "/tests/data/e2e.textproto";

}  // namespace renju::testing

#endif  // RENJU_TESTS_E2E_E2E_PATHS_H_
