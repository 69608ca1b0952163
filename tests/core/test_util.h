#pragma once
// Helpers shared by the core suites: reading run-directory files back.
#include <QFile>
#include <QString>
#include <QStringList>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace testutil {

inline std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// CSV as rows of cells (header included), no quoting (our files never quote).
inline std::vector<std::vector<std::string>> readCsv(const std::filesystem::path& p) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    rows.push_back(cells);
  }
  return rows;
}

/// Index of a column in a CSV header, -1 when absent.
inline int column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace testutil

/// QCOMPARE for StopReason, shown by name (Qt Test's toString lookup would find core's
/// trainscope::toString, which returns std::string).
#define COMPARE_REASON(a, b)                                \
  QCOMPARE(QString::fromStdString(trainscope::toString(a)), \
           QString::fromStdString(trainscope::toString(b)))
