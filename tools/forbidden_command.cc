// `renju forbidden --jsonl`: labels black's forbidden points, one JSON line
// out per line in, in order. A bad line gets {"error": ...} and the rest go on.
#include <algorithm>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/command_util.h"
#include "records/json_position.h"
#include "rules/forbidden.h"
#include "tools/commands.h"

namespace renju::commands {
namespace {

// ordered_json keeps keys in insertion order: {"p":..,"kind":..} as documented.
using OrderedJson = nlohmann::ordered_json;

OrderedJson LabelLine(const std::string& line) {
  nlohmann::json object = nlohmann::json::parse(line, nullptr, false);
  if (object.is_discarded()) return {{"error", "line is not valid JSON"}};
  absl::StatusOr<Board> board = BoardFromJson(object);
  if (!board.ok()) return {{"error", std::string(board.status().message())}};
  std::vector<ForbiddenPoint> points = ForbiddenPoints(*board);
  std::sort(points.begin(), points.end(),
            [](const ForbiddenPoint& a, const ForbiddenPoint& b) {
              return a.point < b.point;
            });
  OrderedJson out = OrderedJson::array();
  for (const ForbiddenPoint& f : points) {
    out.push_back({{"p", PointName(f.point)},
                   {"kind", std::string(ForbiddenKindName(f.kind))}});
  }
  return {{"forbidden", out}};
}

}  // namespace

int Forbidden(const Argv& argv) {
  Args args("forbidden",
            "Reads positions as JSON Lines on stdin ({\"moves\":[...]} in play "
            "order, or {\"black\":[...],\"white\":[...]}) and writes one line "
            "per input line: {\"forbidden\":[{\"p\":\"e7\",\"kind\":"
            "\"double-three\"},...]} sorted by (column, row), or "
            "{\"error\":\"...\"}.");
  args.AddBool("jsonl", "JSON Lines on stdin and stdout (the only format)");
  if (int code = ParseOrExit(args, argv); code >= 0) return code;
  if (!args.GetBool("jsonl")) {
    std::cerr << "forbidden: pass --jsonl (JSON Lines is the only format)\n";
    return 2;
  }
  std::ios::sync_with_stdio(false);
  std::string line;
  int line_number = 0;
  while (std::getline(std::cin, line)) {
    ++line_number;
    OrderedJson result = LabelLine(line);
    if (result.contains("error")) {
      result["error"] = "line " + std::to_string(line_number) + ": " +
                        result["error"].get<std::string>();
    }
    std::cout << result.dump(-1, ' ', false,
                             OrderedJson::error_handler_t::replace)
              << '\n';
  }
  std::cout.flush();
  return 0;
}

}  // namespace renju::commands
