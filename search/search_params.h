// What a search is allowed to do: a plain struct, filled from the protobuf
// config in one place per binary (KataGo's SearchParams / Setup::loadParams
// split). Formulas and defaults follow KataGo; research notes in
// /tmp/research/formats.md §5 give the sources.
#ifndef RENJU_SEARCH_SEARCH_PARAMS_H_
#define RENJU_SEARCH_SEARCH_PARAMS_H_

#include <cstdint>

#include "absl/status/status.h"

namespace renju {

// The deepest VCF a search may be asked for, in attacker moves (the bound
// Validate() always had); config/ takes its vcf_max_depth range from here.
inline constexpr int kMaxVcfDepth = 112;
// The deepest VCT a search may be asked for, in attacker threat moves.
inline constexpr int kMaxVctDepth = 60;

// Leaves one search thread gathers per evaluator call at play time (the
// Gomocup engine, the inference server) when the config does not say:
// BENCHMARKS.md "Play-time throughput" measured it against other sizes.
inline constexpr int kPlayTimeMinibatchSize = 16;
// A search with a visit budget gathers at most budget / this many leaves at
// once (at least one), whatever minibatch_size says: at 200 visits a batch
// of 16 cost -63 +- 72 Elo against the sequential search, one of 6 (200 /
// 32) -14 +- 68 (BENCHMARKS.md, "Play-time throughput").
inline constexpr int kMinVisitsPerGatheredLeaf = 32;

// Validate() checks invariants only (limits >= 0, weights and probabilities
// in 0..1, at least one budget); the ranges a config may ask for are
// config/config.cc's, defined once there.
struct SearchParams {
  // --- Budget ---------------------------------------------------------------
  // Stop once the root's children hold this many visits (reused visits
  // included). 0: no visit limit.
  int64_t max_visits = 800;
  // Stop after this much wall time. 0: no time limit. At least one of
  // max_visits and max_time_ms must be set.
  int64_t max_time_ms = 0;
  // Search threads on one tree. 1 is deterministic for a given seed; more
  // use virtual loss (interactive play; self-play runs one thread per game).
  int num_threads = 1;
  // Pseudo-visits counted as losses on each node a playout in flight passes
  // through (several threads, or a gathered minibatch).
  float virtual_loss = 1.0f;
  // Leaves each search thread gathers before one evaluator call (lc0's
  // minibatch): it descends up to this many times under virtual loss, then
  // evaluates the new leaves together (Evaluator::EvaluateBatch) and backs
  // them all up. 1 evaluates each playout's leaf on its own. Play-time
  // defaults (kPlayTimeMinibatchSize) gather; self-play, whose many games
  // fill the evaluator's batches already, does not. A visit budget caps it
  // at max_visits / kMinVisitsPerGatheredLeaf.
  int minibatch_size = 1;
  // A descent that ends on a leaf already in flight is a collision: it is
  // not evaluated twice, its path keeps its virtual loss until the batch is
  // backed up (so the next descent turns elsewhere), and this many of them
  // end a gathering early.
  int max_collisions = 32;

  // --- PUCT (KataGo searchexplorehelpers.cpp) --------------------------------
  //   c(N) = c_puct + c_puct_log * ln((N + c_puct_base) / c_puct_base)
  //   U    = c(N) * sqrt(N + 0.01) * P / (1 + n)
  // with N the parent's child visits and n the child's.
  float c_puct = 1.0f;
  float c_puct_log = 0.45f;
  float c_puct_base = 500.0f;
  // First-play urgency: an unvisited child is valued at the parent's Q minus
  // this times sqrt(policy mass of the visited children). KataGo uses 0 at
  // the root when root noise is on.
  float fpu_reduction = 0.2f;
  float root_fpu_reduction = 0.1f;

  // --- Root Dirichlet noise --------------------------------------------------
  bool root_noise = false;
  // Total concentration, spread evenly over the root's legal moves (per-move
  // alpha = total / number of legal moves). KataGo's density 0.03 per point
  // on 15x15 gives 6.75.
  float dirichlet_alpha_total = 6.75f;
  // P' = (1 - weight) * P + weight * noise.
  float dirichlet_weight = 0.25f;

  // --- Move choice (KataGo chosenMoveTemperature) ---------------------------
  // Temperature at ply p: final + (early - final) * 0.5^(p / halflife).
  // 0 plays the most visited move.
  float temperature_early = 0.0f;
  float temperature_final = 0.0f;
  float temperature_halflife_plies = 12.0f;

  // --- Renju tactics, run before every network call (KataGomo) --------------
  // Win in one; only the defences when the opponent threatens five.
  bool tactics = true;
  // Prove wins by continuous fours; a proof overrides the network value.
  bool vcf = true;
  // When the opponent has a VCF at the root, search only the moves that
  // stop it. Below the root the side to move's own VCF check already marks
  // each losing reply (one playout each), so the in-tree check mostly saves
  // visits; it about doubles the tactics' cost per playout.
  bool defend_vcf = true;
  bool defend_vcf_in_tree = false;
  // On the empty board search only the centre (Tactic::kCentreOpening):
  // renju's first stone, which every RIF-family opening rule requires and
  // strong free-renju players and engines play; the network alone opened
  // two points off it.
  bool centre_first_stone = true;
  // Solver limits: nodes (attacker four-moves tried) per solve at the root
  // and at other nodes, and attacker moves per line.
  int64_t vcf_max_nodes_root = 20000;
  int64_t vcf_max_nodes = 500;
  int vcf_max_depth = 30;
  // VCT (threes and fours, search/vct.h) at the root only: nodes per solve
  // (0: no VCT), attacker threat moves per line, and the share of
  // max_time_ms all the root's VCT work may take when there is a time
  // limit. A proven VCT decides the move (tactic kVct). With defend_vct,
  // when the opponent has a VCT and the solver proves which of the
  // candidate moves refute it (a second budget of vct_max_nodes_root),
  // only those are searched (kDefendVct).
  int64_t vct_max_nodes_root = 0;
  int vct_max_depth = 12;
  float vct_time_share = 0.25f;
  bool defend_vct = true;

  // --- KataGo data-efficiency tools (arXiv:1902.10565) -----------------------
  // Playout-cap randomisation: a move gets a full search of max_visits with
  // probability full_search_probability and becomes a policy target; other
  // moves get cheap_visits, no noise and no forced playouts.
  bool playout_cap_randomisation = false;
  float full_search_probability = 0.25f;
  int64_t cheap_visits = 100;
  // Forced playouts at the root of full searches: a visited child with
  // n < sqrt(k * P * N) is chosen first. 0 turns them off (KataGo uses 2).
  float forced_playouts_k = 0.0f;
  // Removes forced and otherwise unwanted visits from the policy target.
  bool policy_target_pruning = false;

  // --- Gumbel AlphaZero root (search/gumbel.h) -------------------------------
  // Replaces PUCT at the root of searches with a visit budget: Gumbel noise
  // picks gumbel_considered_moves candidates, sequential halving spends the
  // budget on them, the move is the Gumbel winner (no temperature) and the
  // policy target the improved policy. Root noise, forced playouts and
  // policy target pruning do not apply at such a root.
  bool gumbel_root = false;
  int gumbel_considered_moves = 16;
  // sigma(q) = (gumbel_c_visit + max_b N(b)) * gumbel_c_scale * q, q in
  // [0, 1]; the paper's defaults.
  float gumbel_c_visit = 50.0f;
  float gumbel_c_scale = 1.0f;

  // OK, or InvalidArgument naming the first bad field and its value.
  absl::Status Validate() const;
};

}  // namespace renju

#endif  // RENJU_SEARCH_SEARCH_PARAMS_H_
