// The input field an error is about, carried in the absl::Status itself (as
// a payload), so that a front end can point at what to fix without reading
// the message: the HTTP API's {"error": ..., "field": ...}.
#ifndef RENJU_BASE_ERROR_FIELD_H_
#define RENJU_BASE_ERROR_FIELD_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace renju {

// `status` naming `field` (e.g. "visits", "position.variant"); an OK status,
// or an empty field, leaves it as it was.
absl::Status WithErrorField(absl::Status status, absl::string_view field);

// The field `status` names; empty when it names none.
std::string ErrorField(const absl::Status& status);

// An InvalidArgument error saying `message` about `field`.
absl::Status InvalidField(absl::string_view message, absl::string_view field);

// `status` with `prefix` before its message; its code and field kept.
absl::Status WithMessagePrefix(absl::string_view prefix,
                               const absl::Status& status);

}  // namespace renju

#endif  // RENJU_BASE_ERROR_FIELD_H_
