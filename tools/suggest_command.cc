// `renju suggest --server HOST:PORT --moves "h8 h9"`: asks an inference
// server (`renju serve`) for a move and prints its answer for people (a
// table of candidates) or, with --json, as one JSON object. With
// `--opening-rule NAME --actions "Place(h8) ..."` it asks for the next
// opening action instead (swap or keep, the 5th moves to offer, the one to
// keep, the next stone) and prints it with the values behind it.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/command_util.h"
#include "cli/token_flags.h"
#include "proto/inference.grpc.pb.h"
#include "rpc/game_record.h"
#include "rpc/rpc.h"
#include "rules/opening.h"
#include "tools/client_tls_flags.h"
#include "tools/commands.h"

namespace renju::commands {
namespace {

// A point index from the wire as a name; the server's answer is outside
// input, so an impossible index is shown, not trusted.
std::string MoveText(int index, int size) {
  if (index == -1) return "pass";
  if (index < 0 || index >= size * size) return absl::StrCat("?", index);
  return PointName(PointAt(index, size));
}

// The opening rule and actions of --opening-rule and --actions.
absl::Status AddOpening(const Args& args, int size,
                        pb::SuggestRequest& request) {
  if (!args.GetString("moves").empty()) {
    return absl::InvalidArgumentError(
        "give --moves or --opening-rule, not both: the opening's --actions "
        "place its stones");
  }
  absl::StatusOr<OpeningRule> rule =
      ParseOpeningRule(args.GetString("opening-rule"));
  if (!rule.ok()) return rule.status();
  absl::StatusOr<std::vector<OpeningAction>> actions =
      ParseOpeningActionList(args.GetString("actions"), size);
  if (!actions.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--actions: ", actions.status().message()));
  }
  request.set_opening_rule(OpeningRuleName(*rule));
  for (const OpeningAction& a : *actions) {
    *request.add_opening_actions() = ToProto(a, size);
  }
  return absl::OkStatus();
}

absl::StatusOr<pb::SuggestRequest> BuildRequest(const Args& args) {
  absl::StatusOr<Variant> variant = ParseVariant(args.GetString("rule"));
  if (!variant.ok()) return variant.status();
  const int size = static_cast<int>(args.GetInt("size"));
  pb::SuggestRequest request;
  pb::Position* position = request.mutable_position();
  position->set_variant(ToProto(*variant));
  position->set_board_size(size);
  if (!args.GetString("opening-rule").empty()) {
    if (absl::Status s = AddOpening(args, size, request); !s.ok()) return s;
  } else if (!args.GetString("actions").empty()) {
    return absl::InvalidArgumentError("--actions needs --opening-rule");
  }
  absl::StatusOr<std::vector<Move>> moves =
      ParseMoveList(args.GetString("moves"), size);
  if (!moves.ok()) return moves.status();
  for (Move m : *moves) position->add_moves(MoveIndex(m, size));
  request.set_visits(static_cast<int32_t>(args.GetInt("visits")));
  request.set_time_ms(static_cast<int32_t>(args.GetInt("time-ms")));
  request.set_num_candidates(static_cast<int32_t>(args.GetInt("candidates")));
  return request;
}

std::string PvText(const pb::SuggestResponse& r, int size) {
  std::vector<std::string> moves;
  for (int m : r.principal_variation()) moves.push_back(MoveText(m, size));
  return absl::StrJoin(moves, " ");
}

std::string HumanText(const pb::SuggestResponse& r, int size) {
  std::string out = absl::StrFormat(
      "best move: %s   (win %.3f, draw %.3f, loss %.3f for the side to move)\n",
      MoveText(r.best_move(), size), r.win(), r.draw(), r.loss());
  if (!r.decided_by().empty()) {
    absl::StrAppend(&out, "decided by: ", r.decided_by(), "\n");
  }
  absl::StrAppend(&out, "pv: ", PvText(r, size), "\n");
  absl::StrAppendFormat(&out, "visits: %d   model generation: %d\n\n",
                        r.visits(), r.model_generation());
  absl::StrAppendFormat(&out, "%-5s %8s %7s %7s %7s %7s\n", "move", "visits",
                        "prior", "win", "draw", "loss");
  for (const pb::Candidate& c : r.candidates()) {
    absl::StrAppendFormat(&out, "%-5s %8d %7.3f %7.3f %7.3f %7.3f\n",
                          MoveText(c.move(), size), c.visits(), c.prior(),
                          c.win(), c.draw(), c.loss());
  }
  return out;
}

std::string JsonText(const pb::SuggestResponse& r, int size) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const pb::Candidate& c : r.candidates()) {
    candidates.push_back({{"move", MoveText(c.move(), size)},
                          {"visits", c.visits()},
                          {"prior", c.prior()},
                          {"win", c.win()},
                          {"draw", c.draw()},
                          {"loss", c.loss()}});
  }
  nlohmann::json pv = nlohmann::json::array();
  for (int m : r.principal_variation()) pv.push_back(MoveText(m, size));
  const nlohmann::json out = {{"best_move", MoveText(r.best_move(), size)},
                              {"win", r.win()},
                              {"draw", r.draw()},
                              {"loss", r.loss()},
                              {"pv", pv},
                              {"visits", r.visits()},
                              {"model_generation", r.model_generation()},
                              {"decided_by", r.decided_by()},
                              {"candidates", candidates}};
  return out.dump() + "\n";
}

// A score (win - loss, -1..1) as an expected score, win + draw / 2.
double Expected(float score) { return (1.0 + score) / 2.0; }

std::string OpeningHumanText(const pb::SuggestResponse& r, int size) {
  const pb::OpeningSuggestion& o = r.opening();
  const std::string colour = o.color() == pb::BLACK ? "black" : "white";
  const pb::OpeningActionKind kind = o.action().kind();
  std::string out = absl::StrCat("opening: ", o.expectation(), "\n");
  absl::StrAppend(&out, "action: ", o.action_text(), "   (the ", o.player(),
                  " player, now ", colour, ")\n");
  const bool swap_decision =
      (kind == pb::OPENING_SWAP || kind == pb::OPENING_KEEP_COLOURS) &&
      o.candidates().empty();
  if (swap_decision) {
    absl::StrAppendFormat(
        &out, "the side to decide scores %.2f as black, %.2f as white: %s\n",
        Expected(o.black_score()), Expected(-o.black_score()),
        kind == pb::OPENING_SWAP ? "swap" : "keep colours");
  } else if (!o.candidates().empty()) {
    absl::StrAppendFormat(&out,
                          "the %s player expects %.2f after this action\n",
                          o.player(), Expected(o.value()));
  }
  absl::StrAppendFormat(&out,
                        "visits: %d   model generation: %d   (scores are "
                        "expected scores, win + draw/2)\n",
                        r.visits(), r.model_generation());
  if (o.candidates().empty()) return out;
  absl::StrAppendFormat(&out, "\n%-9s %12s\n", "candidate", "black scores");
  for (const pb::OpeningCandidate& c : o.candidates()) {
    const bool taken =
        std::find(o.action().points().begin(), o.action().points().end(),
                  c.point()) != o.action().points().end();
    absl::StrAppendFormat(&out, "%-9s %12.2f%s\n", MoveText(c.point(), size),
                          Expected(c.black_score()), taken ? "   *" : "");
  }
  return out;
}

std::string OpeningJsonText(const pb::SuggestResponse& r, int size) {
  const pb::OpeningSuggestion& o = r.opening();
  nlohmann::json points = nlohmann::json::array();
  for (int p : o.action().points()) points.push_back(MoveText(p, size));
  nlohmann::json candidates = nlohmann::json::array();
  for (const pb::OpeningCandidate& c : o.candidates()) {
    candidates.push_back({{"point", MoveText(c.point(), size)},
                          {"black_score", c.black_score()}});
  }
  const nlohmann::json out = {
      {"expectation", o.expectation()},
      {"player", o.player()},
      {"color", o.color() == pb::BLACK ? "black" : "white"},
      {"action", o.action_text()},
      {"kind", pb::OpeningActionKind_Name(o.action().kind())},
      {"points", points},
      {"count", o.action().count()},
      {"value", o.value()},
      {"black_score", o.black_score()},
      {"candidates", candidates},
      {"visits", r.visits()},
      {"model_generation", r.model_generation()}};
  return out.dump() + "\n";
}

const ClientTlsFlags kServerTls = {"tls-root-cert", "tls-cert", "tls-key"};

void AddSuggestFlags(Args& args) {
  args.AddString("server", "127.0.0.1:50052", "inference server HOST:PORT");
  args.AddString("moves", "", "moves in play order, e.g. \"h8 h9 i10\"");
  args.AddString("opening-rule", "",
                 "ask for the next opening action under this rule instead "
                 "of a move: rif, yamaguchi, tarannikov, taraguchi10, "
                 "swap1, swap3, swap2, ...");
  args.AddString("actions", "",
                 "with --opening-rule: the opening actions so far, e.g. "
                 "\"Place(h8) Place(h9) Place(j10) Swap\"");
  args.AddString("rule", "renju", "renju, standard or freestyle");
  args.AddInt("size", 15, 5, 20, "board size");
  args.AddInt("visits", 0, 0, 10000000,
              "visit budget (0 with --time-ms 0: the server's default)");
  args.AddInt("time-ms", 0, 0, 3600000, "time budget in milliseconds");
  args.AddInt("candidates", 5, 1, 225, "candidate moves to show");
  args.AddInt("deadline-ms", 60000, 1, 86400000,
              "how long to wait for the answer");
  args.AddBool("json",
               "print one JSON object instead of a table (opening scores "
               "there are win - loss, -1..1)");
  AddTokenFlags(args, "token", "bearer token the server requires",
                TokenEnv::kRenjuToken);
  AddClientTlsFlags(args, kServerTls, "the server");
}

// The options of the channel to --server, its TLS files checked first.
absl::StatusOr<ChannelOptions> ServerChannelOptions(const Args& args,
                                                    const std::string& token) {
  ChannelOptions options;
  options.address = args.GetString("server");
  options.token = token;
  if (absl::Status s = SetClientTls(args, kServerTls, options); !s.ok()) {
    return s;
  }
  return options;
}

}  // namespace

int Suggest(const Argv& argv) {
  Args args("suggest",
            "Asks an inference server (renju serve) for the best move of a "
            "position and prints the candidates it searched.");
  AddSuggestFlags(args);
  if (int code = ParseOrExit(args, argv); code >= 0) return code;

  absl::StatusOr<std::string> token =
      GetTokenFlag(args, "token", TokenEnv::kRenjuToken);
  if (!token.ok()) return Fail(token.status());
  absl::StatusOr<pb::SuggestRequest> request = BuildRequest(args);
  if (!request.ok()) return Fail(request.status());
  absl::StatusOr<ChannelOptions> channel_options =
      ServerChannelOptions(args, *token);
  if (!channel_options.ok()) return Fail(channel_options.status());
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
      MakeChannel(*channel_options);
  if (!channel.ok()) return Fail(channel.status());
  std::unique_ptr<pb::Inference::Stub> stub = pb::Inference::NewStub(*channel);
  grpc::ClientContext context;
  PrepareContext(context, *token, args.GetInt("deadline-ms"));
  pb::SuggestResponse response;
  const grpc::Status status = stub->Suggest(&context, *request, &response);
  if (!status.ok()) {
    return Fail(ToAbsl(status,
                       absl::StrCat("Suggest from ", args.GetString("server")),
                       *channel_options));
  }
  const int size = static_cast<int>(args.GetInt("size"));
  const bool json = args.GetBool("json");
  std::string text;
  if (response.has_opening()) {
    text = json ? OpeningJsonText(response, size)
                : OpeningHumanText(response, size);
  } else {
    text = json ? JsonText(response, size) : HumanText(response, size);
  }
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace renju::commands
