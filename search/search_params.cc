#include "search/search_params.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace renju {
namespace {

template <typename T>
absl::Status Bad(absl::string_view field, T value, absl::string_view want) {
  return absl::InvalidArgumentError(
      absl::StrCat("SearchParams.", field, " = ", value, ": expected ", want));
}

bool Finite(float v) { return std::isfinite(v); }

}  // namespace

absl::Status SearchParams::Validate() const {
  if (max_visits < 0) return Bad("max_visits", max_visits, ">= 0");
  if (max_time_ms < 0) return Bad("max_time_ms", max_time_ms, ">= 0");
  if (max_visits == 0 && max_time_ms == 0) {
    return absl::InvalidArgumentError(
        "SearchParams.max_visits and max_time_ms are both 0: expected at "
        "least one limit");
  }
  if (num_threads < 1) return Bad("num_threads", num_threads, ">= 1");
  if (minibatch_size < 1) {
    return Bad("minibatch_size", minibatch_size, ">= 1");
  }
  if (max_collisions < 0) {
    return Bad("max_collisions", max_collisions, ">= 0");
  }
  if (!Finite(virtual_loss) || virtual_loss < 0) {
    return Bad("virtual_loss", virtual_loss, ">= 0");
  }
  if (!Finite(c_puct) || c_puct <= 0) return Bad("c_puct", c_puct, "> 0");
  if (!Finite(c_puct_log) || c_puct_log < 0) {
    return Bad("c_puct_log", c_puct_log, ">= 0");
  }
  if (!Finite(c_puct_base) || c_puct_base <= 0) {
    return Bad("c_puct_base", c_puct_base, "> 0");
  }
  if (!Finite(fpu_reduction) || fpu_reduction < 0) {
    return Bad("fpu_reduction", fpu_reduction, ">= 0");
  }
  if (!Finite(root_fpu_reduction) || root_fpu_reduction < 0) {
    return Bad("root_fpu_reduction", root_fpu_reduction, ">= 0");
  }
  if (!Finite(dirichlet_alpha_total) || dirichlet_alpha_total <= 0) {
    return Bad("dirichlet_alpha_total", dirichlet_alpha_total, "> 0");
  }
  if (!Finite(dirichlet_weight) || dirichlet_weight < 0 ||
      dirichlet_weight > 1) {
    return Bad("dirichlet_weight", dirichlet_weight, "0..1");
  }
  if (!Finite(temperature_early) || temperature_early < 0) {
    return Bad("temperature_early", temperature_early, ">= 0");
  }
  if (!Finite(temperature_final) || temperature_final < 0) {
    return Bad("temperature_final", temperature_final, ">= 0");
  }
  if (!Finite(temperature_halflife_plies) || temperature_halflife_plies <= 0) {
    return Bad("temperature_halflife_plies", temperature_halflife_plies, "> 0");
  }
  if (vcf_max_nodes_root < 1) {
    return Bad("vcf_max_nodes_root", vcf_max_nodes_root, ">= 1");
  }
  if (vcf_max_nodes < 1) return Bad("vcf_max_nodes", vcf_max_nodes, ">= 1");
  if (vcf_max_depth < 1 || vcf_max_depth > kMaxVcfDepth) {
    return Bad("vcf_max_depth", vcf_max_depth,
               absl::StrCat("1..", kMaxVcfDepth));
  }
  if (vct_max_nodes_root < 0) {
    return Bad("vct_max_nodes_root", vct_max_nodes_root, ">= 0");
  }
  if (vct_max_depth < 1 || vct_max_depth > kMaxVctDepth) {
    return Bad("vct_max_depth", vct_max_depth,
               absl::StrCat("1..", kMaxVctDepth));
  }
  if (!Finite(vct_time_share) || vct_time_share <= 0 || vct_time_share > 1) {
    return Bad("vct_time_share", vct_time_share, "above 0, at most 1");
  }
  if (!Finite(full_search_probability) || full_search_probability < 0 ||
      full_search_probability > 1) {
    return Bad("full_search_probability", full_search_probability, "0..1");
  }
  if (playout_cap_randomisation) {
    if (max_visits == 0) {
      return absl::InvalidArgumentError(
          "SearchParams.playout_cap_randomisation needs max_visits > 0 (the "
          "full budget)");
    }
    if (cheap_visits < 1 || cheap_visits > max_visits) {
      return Bad("cheap_visits", cheap_visits,
                 absl::StrCat("1..max_visits (", max_visits, ")"));
    }
  }
  if (!Finite(forced_playouts_k) || forced_playouts_k < 0) {
    return Bad("forced_playouts_k", forced_playouts_k, ">= 0");
  }
  if (gumbel_considered_moves < 1) {
    return Bad("gumbel_considered_moves", gumbel_considered_moves, ">= 1");
  }
  if (!Finite(gumbel_c_visit) || gumbel_c_visit < 0) {
    return Bad("gumbel_c_visit", gumbel_c_visit, ">= 0");
  }
  if (!Finite(gumbel_c_scale) || gumbel_c_scale < 0) {
    return Bad("gumbel_c_scale", gumbel_c_scale, ">= 0");
  }
  return absl::OkStatus();
}

}  // namespace renju
