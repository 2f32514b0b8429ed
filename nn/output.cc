#include "nn/output.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace renju {

void MaskedSoftmax(const float* legal, int num_points, float* logits) {
  // Subtracting the largest legal logit keeps exp() in range.
  float max_logit = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < num_points; ++i) {
    if (legal[i] != 0.0f) max_logit = std::max(max_logit, logits[i]);
  }
  double sum = 0.0;
  for (int i = 0; i < num_points; ++i) {
    logits[i] = legal[i] != 0.0f ? std::exp(logits[i] - max_logit) : 0.0f;
    sum += logits[i];
  }
  if (sum <= 0.0) return;  // nothing legal: all zero already
  const float scale = static_cast<float>(1.0 / sum);
  for (int i = 0; i < num_points; ++i) logits[i] *= scale;
}

void SetWdl(const float* wdl_logits, Evaluation& out) {
  const float max_logit =
      std::max({wdl_logits[0], wdl_logits[1], wdl_logits[2]});
  const float win = std::exp(wdl_logits[0] - max_logit);
  const float draw = std::exp(wdl_logits[1] - max_logit);
  const float loss = std::exp(wdl_logits[2] - max_logit);
  const float sum = win + draw + loss;
  out.win = win / sum;
  out.draw = draw / sum;
  out.loss = loss / sum;
}

}  // namespace renju
