#include "base/error_field.h"

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace renju {
namespace {

// The payload's type URL, as absl::Status asks for one.
constexpr char kErrorFieldUrl[] = "type.googleapis.com/renju.ErrorField";

}  // namespace

absl::Status WithErrorField(absl::Status status, absl::string_view field) {
  if (!status.ok() && !field.empty())
    status.SetPayload(kErrorFieldUrl, absl::Cord(field));
  return status;
}

std::string ErrorField(const absl::Status& status) {
  const auto field = status.GetPayload(kErrorFieldUrl);  // absl::optional
  return field ? std::string(*field) : std::string();
}

absl::Status InvalidField(absl::string_view message, absl::string_view field) {
  return WithErrorField(absl::InvalidArgumentError(message), field);
}

absl::Status WithMessagePrefix(absl::string_view prefix,
                               const absl::Status& status) {
  return WithErrorField(
      absl::Status(status.code(), absl::StrCat(prefix, status.message())),
      ErrorField(status));
}

}  // namespace renju
