// The model `renju gomocup`, `pbrain-renju` and `renju serve` play when no
// --model is given. Gomocup managers start an engine from its own folder,
// so a renju.model beside the binary comes first (the user's choice);
// otherwise the model the project ships (models/default.model), which the
// build copies to <build>/share/renju/ and `cmake --install` to
// <prefix>/share/renju/, so it is found from a build tree, an install, and
// an install whose binary was copied elsewhere.
#ifndef RENJU_CLI_DEFAULT_MODEL_H_
#define RENJU_CLI_DEFAULT_MODEL_H_

#include <string>
#include <vector>

namespace renju::commands {

// The folder of the running binary with a trailing '/', symlinks resolved
// (pbrain-renju is a link to renju); "" when /proc cannot say.
std::string BinaryFolder();

// The places looked at, in order, for a binary in `binary_folder`.
std::vector<std::string> DefaultModelCandidates(
    const std::string& binary_folder);

// The first readable candidate; "" when there is none.
std::string FindDefaultModel(const std::string& binary_folder);

}  // namespace renju::commands

#endif  // RENJU_CLI_DEFAULT_MODEL_H_
