// RenjuNet's game database (`renjunet_v10_YYYYMMDD.rif`, renju.net), read
// with pugixml. There is no published schema; this follows what several
// independent readers of the real file agree on:
//
//   <database ...>
//     <rules><rule id="1" name="RIF"/></rules>
//     <players><player id="45" name="Ann" surname="Lee"/></players>
//     <tournaments><tournament id="12" name="..." rule="1"/></tournaments>
//     <openings><opening id="2" name="..."/></openings>
//     <games>
//       <game id="123" tournament="12" rule="1" black="45" white="67"
//             bresult="0.5" opening="2" alt="..." swap="...">
//         <move>h8 i9 j10</move>
//       </game>
//     </games>
//   </database>
//
// Moves are renju notation, rows counted from the bottom (RenjuNet's
// orientation, the one RULES.md uses), black first, alternating.
// `bresult` is black's score: 1 black won, 0 white won, 0.5 draw. The rule
// comes from the game's `rule` attribute, else its tournament's, and gives
// the variant through VariantFromRuleName when the rules table names it;
// an id with no name leaves the variant unset. The lookup tables are
// optional: an id they do not resolve is kept as the id.
#ifndef RENJU_RECORDS_RIF_H_
#define RENJU_RECORDS_RIF_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "rules/record.h"

namespace renju {

struct RifGame {
  GameRecord record;  // size 15; line = line of the <game> element
  std::string id;     // the game's id attribute
  std::string black;  // "name surname" from the players table, else id
  std::string white;
  std::string tournament;  // tournament name, else its id
  std::string rule;        // rule name, else its id; empty when absent
  // Opening data, empty when absent: the opening's name (else its id), the
  // 5th-move alternatives and the swap record, both as written.
  std::string opening;
  std::string alt;
  std::string swap;
};

// Every <game> of <games> in document order. Errors name the line: XML
// that does not parse, no <games> element, a bad bresult or move token.
absl::StatusOr<std::vector<RifGame>> ReadRif(absl::string_view xml);

// A database of the one game in that form, which ReadRif reads back: the
// rules table names the variant ("renju", "standard", "freestyle") when the
// record states it, bresult the result when known. RenjuNet's opening data
// (alt, swap) is left out: its notation is RenjuNet's and does not map to
// every opening rule. Fails on a board other than 15 x 15 and on a pass
// or an off-board move (RenjuNet records have neither).
absl::StatusOr<std::string> WriteRif(const GameRecord& record);

}  // namespace renju

#endif  // RENJU_RECORDS_RIF_H_
