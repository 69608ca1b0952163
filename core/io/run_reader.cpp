#include "core/io/run_reader.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/errors.h"
#include "core/io/number_format.h"

namespace trainscope {
namespace {

std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

}  // namespace

std::vector<size_t> currentRows(const std::vector<int64_t>& steps) {
  std::vector<size_t> kept;
  for (size_t i = 0; i < steps.size(); ++i) {
    while (!kept.empty() && steps[kept.back()] >= steps[i]) kept.pop_back();
    kept.push_back(i);
  }
  return kept;
}

std::vector<StepRecord> readStepsCsv(const std::filesystem::path& file, int64_t max_step) {
  const std::string name = file.string();
  std::ifstream in(file);
  if (!in) throw Error(ErrorCode::Io, name, "cannot open " + name);
  std::string line;
  if (!std::getline(in, line)) throw Error(ErrorCode::Io, name, name + " is empty");
  const std::vector<std::string> header = splitCsv(line);
  auto column = [&](const char* key, bool required) -> int {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == key) return static_cast<int>(i);
    if (required)
      throw Error(ErrorCode::Io, name, name + ": the header has no \"" + key + "\" column");
    return -1;
  };
  const int c_step = column("step", true), c_epoch = column("epoch", true),
            c_batch = column("batch", true), c_loss = column("loss", true),
            c_norm = column("grad_norm", true), c_clipped = column("grad_norm_clipped", false),
            c_lr = column("lr", false), c_scale = column("loss_scale", false);

  std::vector<StepRecord> rows;
  for (int64_t line_no = 2; std::getline(in, line); ++line_no) {
    if (line.empty()) continue;
    const std::vector<std::string> cells = splitCsv(line);
    auto bad = [&]() -> Error {
      return Error(ErrorCode::Io, name,
                   name + ", line " + std::to_string(line_no) + ": not a steps.csv row: " + line);
    };
    auto number = [&](int c) -> double {
      if (c < 0) return 0;
      if (c >= static_cast<int>(cells.size())) throw bad();
      auto v = parseNumber(cells[c]);
      if (!v) throw bad();
      return *v;
    };
    auto integer = [&](int c) -> int64_t {
      if (c >= static_cast<int>(cells.size())) throw bad();
      auto v = parseInteger(cells[c]);
      if (!v) throw bad();
      return *v;
    };
    StepRecord r;
    r.step = integer(c_step);
    r.epoch = integer(c_epoch);
    r.batch = integer(c_batch);
    r.loss = number(c_loss);
    r.grad_norm = number(c_norm);
    r.grad_norm_clipped = c_clipped >= 0 ? number(c_clipped) : r.grad_norm;
    r.lr = number(c_lr);
    if (c_scale >= 0 && c_scale < static_cast<int>(cells.size()) && !cells[c_scale].empty())
      r.loss_scale = number(c_scale);
    r.applied = std::isfinite(r.loss) && std::isfinite(r.grad_norm);
    rows.push_back(r);
  }
  std::vector<int64_t> steps;
  for (const StepRecord& r : rows) steps.push_back(r.step);
  std::vector<StepRecord> current;
  for (size_t i : currentRows(steps))
    if (rows[i].step <= max_step) current.push_back(rows[i]);
  return current;
}

std::vector<StepRecord> readRunSteps(const std::filesystem::path& dir) {
  int64_t last = std::numeric_limits<int64_t>::max();
  std::ifstream in(dir / "summary.json");
  if (in) {
    const nlohmann::json s = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (s.is_object() && s.contains("global_step") && s["global_step"].is_number_integer())
      last = s["global_step"].get<int64_t>();
  }
  return readStepsCsv(dir / "steps.csv", last);
}

}  // namespace trainscope
