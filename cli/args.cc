#include "cli/args.h"

#include <cstdint>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/logging.h"

namespace renju {

Args::Args(std::string command, std::string summary)
    : command_(std::move(command)), summary_(std::move(summary)) {}

void Args::AddString(const std::string& name, const std::string& default_value,
                     const std::string& help) {
  flags_[name] = Flag{Kind::kString, help, default_value};
  order_.push_back(name);
}

void Args::AddInt(const std::string& name, int64_t default_value, int64_t min,
                  int64_t max, const std::string& help) {
  flags_[name] = Flag{Kind::kInt, help, absl::StrCat(default_value),
                      static_cast<double>(min), static_cast<double>(max)};
  order_.push_back(name);
}

void Args::AddDouble(const std::string& name, double default_value, double min,
                     double max, const std::string& help) {
  flags_[name] =
      Flag{Kind::kDouble, help, absl::StrCat(default_value), min, max};
  order_.push_back(name);
}

void Args::AddBool(const std::string& name, const std::string& help) {
  flags_[name] = Flag{Kind::kBool, help, "false"};
  order_.push_back(name);
}

void Args::AllowPositional(int count, const std::string& help) {
  positional_count_ = count;
  positional_help_ = help;
}

absl::Status Args::SetValue(const std::string& name, Flag& flag,
                            const std::string& value) {
  auto error = [&](const std::string& why) {
    return absl::InvalidArgumentError(
        absl::StrCat(command_, ": --", name, "=", value, ": ", why));
  };
  switch (flag.kind) {
    case Kind::kString:
      break;
    case Kind::kInt: {
      int64_t v = 0;
      if (!absl::SimpleAtoi(value, &v)) return error("not an integer");
      if (v < flag.min || v > flag.max) {
        return error(absl::StrFormat("outside %d..%d",
                                     static_cast<int64_t>(flag.min),
                                     static_cast<int64_t>(flag.max)));
      }
      break;
    }
    case Kind::kDouble: {
      double v = 0;
      if (!absl::SimpleAtod(value, &v)) return error("not a number");
      if (!(v >= flag.min && v <= flag.max)) {
        return error(absl::StrFormat("outside %g..%g", flag.min, flag.max));
      }
      break;
    }
    case Kind::kBool: {
      bool v = false;
      if (!absl::SimpleAtob(value, &v)) return error("not true or false");
      flag.value = v ? "true" : "false";
      flag.set = true;
      return absl::OkStatus();
    }
  }
  flag.value = value;
  flag.set = true;
  return absl::OkStatus();
}

absl::Status Args::Parse(const std::vector<std::string>& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      help_requested_ = true;
      continue;
    }
    if (!absl::StartsWith(arg, "--") || arg == "--") {
      if (positional_count_ >= 0 &&
          static_cast<int>(positional_.size()) >= positional_count_) {
        return absl::InvalidArgumentError(
            absl::StrCat(command_, ": unexpected argument '", arg, "'"));
      }
      positional_.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2);
    std::string value;
    bool has_value = false;
    if (const size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto it = flags_.find(name);
    if (it == flags_.end() && !has_value && absl::StartsWith(name, "no")) {
      auto negated = flags_.find(name.substr(2));
      if (negated != flags_.end() && negated->second.kind == Kind::kBool) {
        negated->second.value = "false";
        negated->second.set = true;
        continue;
      }
    }
    if (it == flags_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat(command_, ": unknown flag --", name, " (see renju ",
                       command_, " --help)"));
    }
    Flag& flag = it->second;
    if (!has_value) {
      if (flag.kind == Kind::kBool) {
        value = "true";
      } else if (i + 1 < argv.size()) {
        value = argv[++i];
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat(command_, ": --", name, " needs a value"));
      }
    }
    if (absl::Status s = SetValue(name, flag, value); !s.ok()) return s;
  }
  return absl::OkStatus();
}

const Args::Flag& Args::Find(const std::string& name, Kind kind) const {
  auto it = flags_.find(name);
  RENJU_CHECK(it != flags_.end() && it->second.kind == kind)
      << "flag --" << name << " was not declared with this type";
  return it->second;
}

std::string Args::GetString(const std::string& name) const {
  return Find(name, Kind::kString).value;
}

int64_t Args::GetInt(const std::string& name) const {
  int64_t v = 0;
  RENJU_CHECK(absl::SimpleAtoi(Find(name, Kind::kInt).value, &v));
  return v;
}

double Args::GetDouble(const std::string& name) const {
  double v = 0;
  RENJU_CHECK(absl::SimpleAtod(Find(name, Kind::kDouble).value, &v));
  return v;
}

bool Args::GetBool(const std::string& name) const {
  return Find(name, Kind::kBool).value == "true";
}

bool Args::IsSet(const std::string& name) const {
  auto it = flags_.find(name);
  return it != flags_.end() && it->second.set;
}

std::string Args::Usage() const {
  std::string out = absl::StrCat("usage: renju ", command_, " [flags]");
  if (positional_count_ != 0) absl::StrAppend(&out, " ", positional_help_);
  absl::StrAppend(&out, "\n\n", summary_, "\n\nflags:\n");
  for (const std::string& name : order_) {
    const Flag& flag = flags_.at(name);
    std::string left = absl::StrCat("  --", name);
    if (flag.kind != Kind::kBool) absl::StrAppend(&left, " <value>");
    absl::StrAppend(&out, absl::StrFormat("%-28s %s", left, flag.help));
    if (flag.kind != Kind::kBool && !flag.value.empty()) {
      absl::StrAppend(&out, " (default ", flag.value, ")");
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

}  // namespace renju
