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

}  // namespace trainscope
