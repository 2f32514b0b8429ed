#include "search/node.h"

namespace renju {

absl::string_view ProofName(Proof p) {
  switch (p) {
    case Proof::kUnknown:
      return "unknown";
    case Proof::kWin:
      return "win";
    case Proof::kLoss:
      return "loss";
    case Proof::kDraw:
      return "draw";
  }
  return "?";
}

Wdl Wdl::Of(Proof p) {
  switch (p) {
    case Proof::kWin:
      return Wdl{1, 0, 0};
    case Proof::kLoss:
      return Wdl{0, 0, 1};
    case Proof::kDraw:
      return Wdl{0, 1, 0};
    case Proof::kUnknown:
      break;
  }
  return Wdl{};
}

Wdl Node::MeanWdl() const {
  if (n == 0) return Wdl{};
  return Wdl{sum.win / n, sum.draw / n, sum.loss / n};
}

}  // namespace renju
