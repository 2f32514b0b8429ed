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

// The budget: visits, time, threads and the gathering of leaves.
absl::Status ValidateBudget(const SearchParams& p) {
  if (p.max_visits < 0) return Bad("max_visits", p.max_visits, ">= 0");
  if (p.max_time_ms < 0) return Bad("max_time_ms", p.max_time_ms, ">= 0");
  if (p.max_visits == 0 && p.max_time_ms == 0) {
    return absl::InvalidArgumentError(
        "SearchParams.max_visits and max_time_ms are both 0: expected at "
        "least one limit");
  }
  if (p.num_threads < 1) return Bad("num_threads", p.num_threads, ">= 1");
  if (p.minibatch_size < 1) {
    return Bad("minibatch_size", p.minibatch_size, ">= 1");
  }
  if (p.max_collisions < 0) {
    return Bad("max_collisions", p.max_collisions, ">= 0");
  }
  if (!Finite(p.virtual_loss) || p.virtual_loss < 0) {
    return Bad("virtual_loss", p.virtual_loss, ">= 0");
  }
  return absl::OkStatus();
}

// PUCT and first-play urgency.
absl::Status ValidatePuct(const SearchParams& p) {
  if (!Finite(p.c_puct) || p.c_puct <= 0) return Bad("c_puct", p.c_puct, "> 0");
  if (!Finite(p.c_puct_log) || p.c_puct_log < 0) {
    return Bad("c_puct_log", p.c_puct_log, ">= 0");
  }
  if (!Finite(p.c_puct_base) || p.c_puct_base <= 0) {
    return Bad("c_puct_base", p.c_puct_base, "> 0");
  }
  if (!Finite(p.fpu_reduction) || p.fpu_reduction < 0) {
    return Bad("fpu_reduction", p.fpu_reduction, ">= 0");
  }
  if (!Finite(p.root_fpu_reduction) || p.root_fpu_reduction < 0) {
    return Bad("root_fpu_reduction", p.root_fpu_reduction, ">= 0");
  }
  return absl::OkStatus();
}

// Root Dirichlet noise and the move choice's temperature.
absl::Status ValidateNoiseAndTemperature(const SearchParams& p) {
  if (!Finite(p.dirichlet_alpha_total) || p.dirichlet_alpha_total <= 0) {
    return Bad("dirichlet_alpha_total", p.dirichlet_alpha_total, "> 0");
  }
  if (!Finite(p.dirichlet_weight) || p.dirichlet_weight < 0 ||
      p.dirichlet_weight > 1) {
    return Bad("dirichlet_weight", p.dirichlet_weight, "0..1");
  }
  if (!Finite(p.temperature_early) || p.temperature_early < 0) {
    return Bad("temperature_early", p.temperature_early, ">= 0");
  }
  if (!Finite(p.temperature_final) || p.temperature_final < 0) {
    return Bad("temperature_final", p.temperature_final, ">= 0");
  }
  if (!Finite(p.temperature_halflife_plies) ||
      p.temperature_halflife_plies <= 0) {
    return Bad("temperature_halflife_plies", p.temperature_halflife_plies,
               "> 0");
  }
  return absl::OkStatus();
}

// The renju tactics' solver limits (VCF and VCT).
absl::Status ValidateSolverLimits(const SearchParams& p) {
  if (p.vcf_max_nodes_root < 1) {
    return Bad("vcf_max_nodes_root", p.vcf_max_nodes_root, ">= 1");
  }
  if (p.vcf_max_nodes < 1) return Bad("vcf_max_nodes", p.vcf_max_nodes, ">= 1");
  if (p.vcf_max_depth < 1 || p.vcf_max_depth > kMaxVcfDepth) {
    return Bad("vcf_max_depth", p.vcf_max_depth,
               absl::StrCat("1..", kMaxVcfDepth));
  }
  if (p.vct_max_nodes_root < 0) {
    return Bad("vct_max_nodes_root", p.vct_max_nodes_root, ">= 0");
  }
  if (p.vct_max_depth < 1 || p.vct_max_depth > kMaxVctDepth) {
    return Bad("vct_max_depth", p.vct_max_depth,
               absl::StrCat("1..", kMaxVctDepth));
  }
  if (!Finite(p.vct_time_share) || p.vct_time_share <= 0 ||
      p.vct_time_share > 1) {
    return Bad("vct_time_share", p.vct_time_share, "above 0, at most 1");
  }
  return absl::OkStatus();
}

// KataGo's data-efficiency tools: playout-cap randomisation and forced
// playouts.
absl::Status ValidateDataEfficiency(const SearchParams& p) {
  if (!Finite(p.full_search_probability) || p.full_search_probability < 0 ||
      p.full_search_probability > 1) {
    return Bad("full_search_probability", p.full_search_probability, "0..1");
  }
  if (p.playout_cap_randomisation) {
    if (p.max_visits == 0) {
      return absl::InvalidArgumentError(
          "SearchParams.playout_cap_randomisation needs max_visits > 0 (the "
          "full budget)");
    }
    if (p.cheap_visits < 1 || p.cheap_visits > p.max_visits) {
      return Bad("cheap_visits", p.cheap_visits,
                 absl::StrCat("1..max_visits (", p.max_visits, ")"));
    }
  }
  if (!Finite(p.forced_playouts_k) || p.forced_playouts_k < 0) {
    return Bad("forced_playouts_k", p.forced_playouts_k, ">= 0");
  }
  return absl::OkStatus();
}

// The Gumbel AlphaZero root.
absl::Status ValidateGumbel(const SearchParams& p) {
  if (p.gumbel_considered_moves < 1) {
    return Bad("gumbel_considered_moves", p.gumbel_considered_moves, ">= 1");
  }
  if (!Finite(p.gumbel_c_visit) || p.gumbel_c_visit < 0) {
    return Bad("gumbel_c_visit", p.gumbel_c_visit, ">= 0");
  }
  if (!Finite(p.gumbel_c_scale) || p.gumbel_c_scale < 0) {
    return Bad("gumbel_c_scale", p.gumbel_c_scale, ">= 0");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SearchParams::Validate() const {
  // In the order of the fields, so the first bad one is named.
  using Check = absl::Status (*)(const SearchParams&);
  for (Check check :
       {ValidateBudget, ValidatePuct, ValidateNoiseAndTemperature,
        ValidateSolverLimits, ValidateDataEfficiency, ValidateGumbel}) {
    if (absl::Status s = check(*this); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace renju
