#include "base/error_field.h"

#include "absl/strings/cord.h"

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

}  // namespace renju
