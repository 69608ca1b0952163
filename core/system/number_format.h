#pragma once
/// Locale-independent number text. Every number core writes or reads as text goes through
/// here, so output never depends on the process locale (the GUI calls setlocale(LC_ALL, ""):
/// under de_DE printf("%g", 0.5) gives "0,5"). Built on std::to_chars / std::from_chars, which
/// always use the "C" conventions. Torch-free, nlohmann-free.
#include <optional>
#include <string>

namespace trainscope {

/// Shortest text that reads back as the same double (std::to_chars); "nan", "inf", "-inf" for
/// non-finite values (what Python's float() reads). For files (CSV, messages with values).
std::string formatNumber(double value);

/// printf("%.<digits>g") in the "C" locale: `digits` significant digits, for people (progress
/// lines). "nan", "inf", "-inf" for non-finite values.
std::string formatSignificant(double value, int digits);

/// A measured number in a sentence for people: 4 significant digits (formatSignificant(value,
/// 4): "1.448e+24", "1282", "0.1"). Messages use it for losses, norms and accuracies; files
/// keep formatNumber's exact text, and events carry the exact value in their fields.
inline std::string formatHuman(double value) { return formatSignificant(value, 4); }

/// printf("%.<decimals>f") in the "C" locale ("12.25" for (12.25, 2)). "nan"/"inf"/"-inf" for
/// non-finite values.
std::string formatFixed(double value, int decimals);

/// A duration in seconds as "M:SS" or "H:MM:SS", rounded to whole seconds (negative or
/// non-finite values as "--:--").
std::string formatDuration(double seconds);

/// Parses a whole string as a decimal number with '.' as the decimal point whatever the
/// locale (std::from_chars). Returns nullopt when `text` is not entirely a number.
std::optional<double> parseNumber(const std::string& text);

/// Parses a whole string as a decimal integer (std::from_chars). nullopt when it is not one or
/// does not fit.
std::optional<long long> parseInteger(const std::string& text);

}  // namespace trainscope
