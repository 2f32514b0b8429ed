// From raw network outputs to what search sees: the policy softmax taken over
// legal points only, and win/draw/loss probabilities.
#ifndef RENJU_NN_OUTPUT_H_
#define RENJU_NN_OUTPUT_H_

#include "search/evaluator.h"

namespace renju {

// Turns `num_points` policy logits into probabilities in place: points whose
// `legal` entry is 0 get exactly 0, the rest a softmax of their logits. With
// no legal point everything is 0.
void MaskedSoftmax(const float* legal, int num_points, float* logits);

// Sets out.win/draw/loss to the softmax of (win, draw, loss) logits.
void SetWdl(const float* wdl_logits, Evaluation& out);

}  // namespace renju

#endif  // RENJU_NN_OUTPUT_H_
