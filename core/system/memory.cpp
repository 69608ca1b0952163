#include "core/system/memory.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>


namespace trainscope {

std::optional<int64_t> residentMemoryBytes() {
  std::ifstream in("/proc/self/statm");
  int64_t size = 0, resident = 0;
  if (!(in >> size >> resident)) return std::nullopt;
  const long page = sysconf(_SC_PAGESIZE);
  return resident * static_cast<int64_t>(page > 0 ? page : 4096);
}

std::optional<int64_t> memInfoField(const std::string& meminfo, const std::string& field) {
  std::istringstream lines(meminfo);
  const std::string prefix = field + ":";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::istringstream words(line.substr(prefix.size()));
    int64_t kb = 0;
    if (words >> kb) return kb * 1024;
  }
  return std::nullopt;
}

std::optional<int64_t> memAvailableIn(const std::string& meminfo) {
  return memInfoField(meminfo, "MemAvailable");
}

std::optional<int64_t> totalMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto total = memInfoField(text, "MemTotal");
  if (!total) return std::nullopt;
  return *total + memInfoField(text, "SwapTotal").value_or(0);
}

std::optional<int64_t> availableMemoryBytes() {
  std::ifstream in("/proc/meminfo");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return memAvailableIn(text);
}

ModelFootprint mlpFootprint(const std::vector<int64_t>& widths) {
  ModelFootprint f;
  for (size_t i = 1; i < widths.size(); ++i) {
    f.parameters += widths[i - 1] * widths[i] + widths[i];
    f.activation_floats_per_sample += 4 * widths[i];
  }
  if (!widths.empty()) f.activation_floats_per_sample += widths[0];
  return f;
}

std::string formatBytes(int64_t bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1000 && u < 4) v /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace trainscope
