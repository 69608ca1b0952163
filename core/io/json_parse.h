#pragma once
/// JSON from files TrainScope did not necessarily write (configs, run folders, checkpoints'
/// config text, lessons, notes, replays), parsed with a nesting limit: nlohmann's parser is
/// iterative, but code that walks the parsed value (merging, flattening, comparing, printing)
/// recurses once per level, and a file nested 60,000 deep overflowed the stack (issue 44
/// item 5). Torch-free, Qt-free.
#include <cstddef>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace trainscope {

/// The deepest nesting of arrays and objects read: far above any file TrainScope writes (a
/// config is 4 levels deep, a lesson 6), far below what walking the value recursively survives.
inline constexpr int kMaxJsonDepth = 256;

/// The byte offset of the bracket that opens level kMaxJsonDepth + 1 of `text` (outside
/// strings), or nullopt when the text is not nested that deep. One linear pass.
inline std::optional<std::size_t> jsonTooDeepAt(std::string_view text, int max_depth = kMaxJsonDepth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

/// Json::parse(text) with the nesting limit: text nested deeper than kMaxJsonDepth is a parse
/// error (nlohmann::json::parse_error 101 "nested deeper than 256 levels" at its byte) or, with
/// `allow_exceptions` false, a discarded value, as Json::parse answers malformed text.
template <class Json = nlohmann::json>
Json parseJson(std::string_view text, bool allow_exceptions = true) {
  if (const auto at = jsonTooDeepAt(text)) {
    if (!allow_exceptions) return Json(Json::value_t::discarded);
    throw nlohmann::json::parse_error::create(
        101, *at + 1,
        "syntax error: arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) +
            " levels (TrainScope's limit)",
        static_cast<const nlohmann::json*>(nullptr));
  }
  return Json::parse(text, nullptr, allow_exceptions);
}

/// The largest JSON file read whole (a runs folder's index of many runs is the largest
/// TrainScope writes: about 2 KB a run).
inline constexpr std::size_t kMaxJsonBytes = std::size_t{256} << 20;

/// parseJson of the rest of `in`, read up to kMaxJsonBytes: a longer stream is a parse error
/// ("larger than 256 MiB") or a discarded value, without reading it all into memory.
template <class Json = nlohmann::json>
Json parseJson(std::istream& in, bool allow_exceptions = true) {
  std::string text;
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    text.append(block, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxJsonBytes) {
      if (!allow_exceptions) return Json(Json::value_t::discarded);
      throw nlohmann::json::parse_error::create(
          101, text.size(),
          "the file is larger than " + std::to_string(kMaxJsonBytes >> 20) +
              " MiB (TrainScope's limit for a JSON file)",
          static_cast<const nlohmann::json*>(nullptr));
    }
  }
  return parseJson<Json>(text, allow_exceptions);
}

}  // namespace trainscope
