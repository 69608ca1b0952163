#pragma once
/// One cell of a CSV file TrainScope writes (the runs table, a plot's data): RFC 4180 quoting
/// when the text holds a comma, a quote or a line break. Torch-free, Qt-free.
#include <string>

namespace trainscope {

/// `text` as a CSV cell: unchanged when it needs no quoting, else in double quotes with each
/// quote doubled ("a,b" -> "\"a,b\"", "say \"hi\"" -> "\"say \"\"hi\"\"\"").
inline std::string csvCell(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

/// A text cell (a name, notes, tags: never a number) of a CSV file that spreadsheets open, as
/// OWASP's "CSV Injection" advice has it: text beginning with '=', '+', '-', '@', a tab or a
/// carriage return gets a leading single quote, so a spreadsheet shows it as text instead of
/// running it as a formula ("=HYPERLINK(...)" -> "'=HYPERLINK(...)"); then csvCell's quoting.
inline std::string csvTextCell(const std::string& text) {
  if (!text.empty() && std::string("=+-@\t\r").find(text.front()) != std::string::npos)
    return csvCell("'" + text);
  return csvCell(text);
}

}  // namespace trainscope
