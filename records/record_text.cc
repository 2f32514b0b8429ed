#include "records/record_text.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "proto/game.pb.h"
#include "records/game_jsonl.h"
#include "records/rif.h"
#include "rpc/game_record.h"
#include "rules/record.h"

namespace renju {
namespace {

enum class Format { kMoveList, kPsq, kSgf, kRif, kJsonl, kGame };

Format DetectFormat(const std::string& path, absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(path);
  if (absl::EndsWith(lower, ".psq")) return Format::kPsq;
  if (absl::EndsWith(lower, ".sgf")) return Format::kSgf;
  if (absl::EndsWith(lower, ".rif") || absl::EndsWith(lower, ".xml")) {
    return Format::kRif;
  }
  if (absl::EndsWith(lower, ".jsonl") || absl::EndsWith(lower, ".json")) {
    return Format::kJsonl;
  }
  if (absl::EndsWith(lower, ".game")) return Format::kGame;
  absl::ConsumePrefix(&text, "\xEF\xBB\xBF");
  text = absl::StripLeadingAsciiWhitespace(text);
  if (absl::StartsWith(text, "Piskvork")) return Format::kPsq;
  if (absl::StartsWith(text, "(")) return Format::kSgf;
  if (absl::StartsWith(text, "<")) return Format::kRif;
  if (absl::StartsWith(text, "{")) return Format::kJsonl;
  return Format::kMoveList;
}

absl::StatusOr<std::vector<GameRecord>> ReadRecords(Format format,
                                                    absl::string_view text) {
  switch (format) {
    case Format::kPsq: {
      absl::StatusOr<GameRecord> record = ReadPsq(text);
      if (!record.ok()) return record.status();
      return std::vector<GameRecord>{std::move(*record)};
    }
    case Format::kSgf:
      return ReadSgf(text);
    case Format::kRif: {
      absl::StatusOr<std::vector<RifGame>> games = ReadRif(text);
      if (!games.ok()) return games.status();
      std::vector<GameRecord> records;
      for (RifGame& game : *games) records.push_back(std::move(game.record));
      return records;
    }
    case Format::kJsonl:
      return ReadGameJsonl(text);
    case Format::kGame: {
      pb::GameRecord stored;
      if (!stored.ParseFromArray(text.data(), static_cast<int>(text.size()))) {
        return absl::InvalidArgumentError("not a serialized GameRecord");
      }
      absl::StatusOr<GameRecord> record = RecordFromProto(stored);
      if (!record.ok()) return record.status();
      return std::vector<GameRecord>{std::move(*record)};
    }
    case Format::kMoveList:
      return ReadMoveLists(text);
  }
  return absl::InternalError("unknown format");
}

}  // namespace

absl::StatusOr<std::vector<GameRecord>> ReadRecordText(const std::string& name,
                                                       absl::string_view text) {
  return ReadRecords(DetectFormat(name, text), text);
}

std::string RecordFormatName(const std::string& name, absl::string_view text) {
  switch (DetectFormat(name, text)) {
    case Format::kPsq:
      return "psq";
    case Format::kSgf:
      return "sgf";
    case Format::kRif:
      return "rif";
    case Format::kJsonl:
      return "jsonl";
    case Format::kGame:
      return "game";
    case Format::kMoveList:
      return "moves";
  }
  return "moves";
}

}  // namespace renju
