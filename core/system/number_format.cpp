#include "core/system/number_format.h"

#include <charconv>
#include <cmath>

namespace trainscope {
namespace {

std::optional<std::string> nonFinite(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  return std::nullopt;
}

std::string toChars(double value, std::chars_format format, std::optional<int> precision) {
  char buf[400];  // %.Nf of 1e308 needs 309 digits plus decimals
  auto res = precision ? std::to_chars(buf, buf + sizeof buf, value, format, *precision)
                       : std::to_chars(buf, buf + sizeof buf, value);
  if (res.ec != std::errc()) return "?";
  return std::string(buf, res.ptr);
}

}  // namespace

std::string formatNumber(double value) {
  if (auto s = nonFinite(value)) return *s;
  return toChars(value, std::chars_format::general, std::nullopt);
}

std::string formatSignificant(double value, int digits) {
  if (auto s = nonFinite(value)) return *s;
  return toChars(value, std::chars_format::general, digits);
}

std::string formatFixed(double value, int decimals) {
  if (auto s = nonFinite(value)) return *s;
  return toChars(value, std::chars_format::fixed, decimals);
}

std::string formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  auto total = static_cast<long long>(std::llround(seconds));
  long long h = total / 3600, m = (total / 60) % 60, s = total % 60;
  auto two = [](long long v) { return (v < 10 ? "0" : "") + std::to_string(v); };
  if (h > 0) return std::to_string(h) + ":" + two(m) + ":" + two(s);
  return std::to_string(m) + ":" + two(s);
}

std::optional<double> parseNumber(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto res = std::from_chars(text.data(), end, value);
  if (res.ec != std::errc() || res.ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::optional<long long> parseInteger(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  auto res = std::from_chars(text.data(), end, value);
  if (res.ec != std::errc() || res.ptr != end || text.empty()) return std::nullopt;
  return value;
}

}  // namespace trainscope
