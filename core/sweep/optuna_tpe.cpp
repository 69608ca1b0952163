#include "core/sweep/optuna_tpe.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/system/child_process.h"
#include "core/system/number_format.h"

namespace trainscope {
namespace {

using json = nlohmann::json;

json searchSpace(const SweepSpec& spec) {
  json space = json::object();
  for (const SweepParameter& p : spec.parameters) {
    json d;
    switch (p.kind) {
      case SweepParameter::Kind::Choices: {
        json indices = json::array();  // Optuna's choices are plain scalars: the indices
        for (size_t i = 0; i < p.choices.size(); ++i) indices.push_back(i);
        d = {{"name", "CategoricalDistribution"}, {"attributes", {{"choices", indices}}}};
        break;
      }
      case SweepParameter::Kind::Uniform:
      case SweepParameter::Kind::LogUniform:
        d = {{"name", "FloatDistribution"},
             {"attributes",
              {{"low", p.low},
               {"high", p.high},
               {"log", p.kind == SweepParameter::Kind::LogUniform},
               {"step", nullptr}}}};
        break;
      case SweepParameter::Kind::IntUniform:
        d = {{"name", "IntDistribution"},
             {"attributes",
              {{"low", static_cast<int64_t>(p.low)},
               {"high", static_cast<int64_t>(p.high)},
               {"log", false},
               {"step", 1}}}};
        break;
    }
    space[p.key] = d;
  }
  return space;
}

}  // namespace

std::optional<std::filesystem::path> findOptuna() {
  std::filesystem::path exe = findProgram("optuna");
  if (exe.empty()) return std::nullopt;
  return exe;
}

OptunaTpe::OptunaTpe(const SweepSpec& spec, std::filesystem::path dir)
    : spec_(spec), dir_(std::move(dir)) {
  const auto found = findOptuna();
  if (!found)
    throw Error(ErrorCode::Config, "method",
                "method tpe runs Optuna's TPE sampler through its command line (optuna ask / "
                "tell), and `optuna` is not installed: install Debian's python3-optuna "
                "(apt-get install python3-optuna), or use grid or random");
  optuna_ = *found;
}

std::string OptunaTpe::run(const std::vector<std::string>& args) {
  ChildSpec child;
  child.exe = optuna_.string();
  child.args = args;
  child.env = {{"PYTHONWARNINGS", "ignore"}, {"NO_COLOR", "1"}};
  const ProgramResult r = runProgram(child);
  if (r.exit_code != 0)
    throw Error(ErrorCode::Io, "optuna", "optuna " + args.front() + " " + r.how + ": " + r.output);
  return r.output;
}

std::pair<int64_t, TrialValues> OptunaTpe::ask(int64_t next) {
  const std::string storage = "sqlite:///" + (dir_ / "optuna.db").string();
  const std::string text =
      run({"ask", "--storage", storage, "--study-name", spec_.name, "--direction",
           spec_.maximize ? "maximize" : "minimize", "--sampler", "TPESampler",
           "--sampler-kwargs", json{{"seed", spec_.seed + static_cast<uint64_t>(next)}}.dump(),
           "--search-space",
           searchSpace(spec_).dump()});
  // The answer is the last line that parses as {"number": N, "params": {...}}.
  std::istringstream lines(text);
  json answer;
  for (std::string line; std::getline(lines, line);) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("number") && j.contains("params")) answer = j;
  }
  if (answer.is_null())
    throw Error(ErrorCode::Io, "optuna", "optuna ask gave no trial: " + text);
  TrialValues values = json::object();
  for (const SweepParameter& p : spec_.parameters) {
    const json& v = answer["params"].at(p.key);
    values[p.key] = p.kind == SweepParameter::Kind::Choices ? p.choices.at(v.get<size_t>()) : v;
  }
  return {answer["number"].get<int64_t>(), values};
}

void OptunaTpe::tell(int64_t number, const std::string& state, std::optional<double> value) {
  std::vector<std::string> args = {"tell", "--storage",
                                   "sqlite:///" + (dir_ / "optuna.db").string(), "--study-name",
                                   spec_.name, "--trial-number", std::to_string(number),
                                   "--state", state, "--skip-if-finished"};
  if (value) args.insert(args.end(), {"--values", formatNumber(*value)});
  run(args);
}

}  // namespace trainscope
