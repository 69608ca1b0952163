#pragma once
/// UTF-8 validity of text read from users' files (CSV cells, folder names) before it reaches
/// JSON (run.json, --json output), which holds only UTF-8. Torch-free, Qt-free.
#include <string>
#include <string_view>

namespace trainscope {

/// The length (1-4) of the well-formed UTF-8 sequence at `p` (before `end`), or 0 when the
/// bytes there are not one (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF).
inline int utf8SequenceLength(const unsigned char* p, const unsigned char* end) {
  const unsigned char c = *p;
  int n = 0;
  unsigned lo = 0x80, hi = 0xBF;
  if (c < 0x80) {
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    n = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (end - p <= n) return 0;
  if (p[1] < lo || p[1] > hi) return 0;
  for (int i = 2; i <= n; ++i)
    if (p[i] < 0x80 || p[i] > 0xBF) return 0;
  return n + 1;
}

/// True when `s` is well-formed UTF-8 (utf8SequenceLength's rules).
inline bool isValidUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    const int n = utf8SequenceLength(p, end);
    if (n == 0) return false;
    p += n;
  }
  return true;
}

/// `s` with every byte that does not start a well-formed UTF-8 sequence replaced by U+FFFD
/// (as Python's bytes.decode("utf-8", "replace") does byte by byte): text that can be shown
/// and put into JSON, e.g. a folder name written in Latin-1.
inline std::string toValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    const int n = utf8SequenceLength(p, end);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      ++p;
    } else {
      out.append(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n));
      p += n;
    }
  }
  return out;
}

}  // namespace trainscope
