#include "cli/default_model.h"

#include <unistd.h>

namespace renju::commands {

std::string BinaryFolder() {
  char buffer[4096];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0) return "";
  const std::string path(buffer, static_cast<size_t>(n));
  return path.substr(0, path.rfind('/') + 1);
}

std::vector<std::string> DefaultModelCandidates(
    const std::string& binary_folder) {
  std::vector<std::string> candidates;
  if (!binary_folder.empty()) {
    candidates.push_back(binary_folder + "renju.model");
    // The build tree: the binary sits at the top of the build folder.
    candidates.push_back(binary_folder + "share/renju/default.model");
    // An install: <prefix>/bin/renju beside <prefix>/share/renju.
    candidates.push_back(binary_folder + "../share/renju/default.model");
  }
  // The install prefix the build was configured for, should the binary
  // have been copied out of it.
  candidates.push_back(std::string(RENJU_INSTALL_DATADIR) + "/default.model");
  return candidates;
}

std::string FindDefaultModel(const std::string& binary_folder) {
  for (const std::string& path : DefaultModelCandidates(binary_folder)) {
    if (access(path.c_str(), R_OK) == 0) return path;
  }
  return "";
}

}  // namespace renju::commands
