#pragma once
// The config key table's parts shared by its files (internal to core/config): a key's member,
// bounds, choices and help (Key), and the sections' tables. config_keys.cpp reads, writes,
// validates and describes them; data_keys.cpp holds the data.* sections.
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/config/train_config.h"
#include "core/errors.h"

namespace trainscope::config_keys {

[[noreturn]] inline void fail(const std::string& key, const std::string& message) {
  throw Error(ErrorCode::Config, key, message);
}

/// The member a key reads and writes; the type decides the JSON kind.
template <class S>
using Member = std::variant<std::string S::*, std::optional<std::string> S::*, int64_t S::*,
                            std::optional<int64_t> S::*, double S::*, bool S::*,
                            std::vector<int64_t> S::*, std::array<double, 2> S::*,
                            std::vector<std::string> S::*, ColumnRef S::*,
                            std::vector<double> S::*, ClassWeights S::*>;

/// One config key. Numbers (and each element of a list) must lie within the bounds; strings
/// must be one of `choices` or pass `accept`.
template <class S>
struct Key {
  Key(const char* n, Member<S> m, const char* h) : name(n), member(m), help(h) {}
  Key& atLeast(double v) { return lower(v, false); }
  Key& above(double v) { return lower(v, true); }
  Key& atMost(double v) { return upper(v, false); }
  Key& below(double v) { return upper(v, true); }
  Key& oneOf(std::vector<std::string> c) {
    choices = std::move(c);
    return *this;
  }
  /// For an optional integer: the string `word` stands for null (and null is written as it).
  Key& nullWord(const char* word) {
    null_word = word;
    return *this;
  }
  /// A live setting: changed while a run goes on (the dashboard's controls, `train --resume
  /// --set` at the resume step, a replay's recorded changes), through the Trainer's commands.
  Key& live() {
    is_live = true;
    return *this;
  }
  Key& matching(bool (*fn)(const std::string&), const char* description) {
    accept = fn;
    rule = description;
    return *this;
  }

  const char* name;
  Member<S> member;
  const char* help;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_open = false, hi_open = false;
  std::vector<std::string> choices;
  bool (*accept)(const std::string&) = nullptr;
  const char* rule = "";
  const char* null_word = nullptr;
  bool is_live = false;

 private:
  Key& lower(double v, bool open) {
    lo = v;
    lo_open = open;
    return *this;
  }
  Key& upper(double v, bool open) {
    hi = v;
    hi_open = open;
    return *this;
  }
};

constexpr double kMaxSeedD = static_cast<double>(kMaxSeed);

// The data.* sections (data_keys.cpp).
const std::vector<Key<DataConfig>>& dataKeys();
const std::vector<Key<CsvConfig>>& csvKeys();
const std::vector<Key<ImageFolderConfig>>& imageFolderKeys();
const std::vector<Key<NpyConfig>>& npyKeys();
const std::vector<Key<IdxConfig>>& idxKeys();
const std::vector<Key<AugmentConfig>>& augmentKeys();

}  // namespace trainscope::config_keys
