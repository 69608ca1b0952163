// `trainscope-cli sweep FILE [--out DIR] [--json] [--dry-run]` and `sweep --resume DIR`: a
// search over settings as a queue of `train` processes (core/sweep/orchestrator.h).
#include <signal.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdio>
#include <filesystem>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "cli/signal_watcher.h"
#include "core/errors.h"
#include "core/sweep/orchestrator.h"
#include "core/sweep/samplers.h"
#include "core/sweep/slurm_executor.h"
#include "core/sweep/sweep_view.h"
#include "core/system/child_process.h"
#include "core/system/number_format.h"

namespace trainscope::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string trialCell(const json& v) {
  if (v.is_number_float()) return formatHuman(v.get<double>());
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

json outcomeJson(const SweepOutcome& out, const fs::path& dir) {
  json trials = json::array();
  for (const TrialLine& t : rankTrials(out)) trials.push_back(toJson(t));
  json j = {{"sweep", out.spec.name},
            {"dir", fs::absolute(dir).lexically_normal().string()},
            {"objective",
             {{"metric", out.spec.metric}, {"goal", out.spec.maximize ? "maximize" : "minimize"}}},
            {"seed", out.spec.seed},
            {"trials", trials},
            {"exit_code", out.exit_code}};
  if (!out.note.empty()) j["note"] = out.note;
  json importance = json::array();
  for (const ParameterImportance& p : parameterImportance(readSweepView(dir)))
    importance.push_back({{"key", p.key},
                          {"spearman_rho", p.rho ? json(*p.rho) : json()},
                          {"n", p.n},
                          {"note", p.none_because}});
  j["importance"] = importance;
  if (out.spec.seeds > 1) {
    json configs = json::array();
    for (const ConfigResult& c : rankConfigs(out)) {
      json o = {{"config", c.config}, {"values", c.values}, {"trials", c.trials}, {"n", c.n}};
      o["objective_mean"] = c.mean ? json(*c.mean) : json();
      o["objective_std"] = c.std ? json(*c.std) : json();
      configs.push_back(o);
    }
    j["seeds"] = out.spec.seeds;
    j["configs"] = configs;
  }
  return j;
}

/// The configurations over seeds: mean +- standard deviation, best first.
void printConfigs(const SweepOutcome& out) {
  std::vector<std::string> headers = {"config"};
  for (const SweepParameter& p : out.spec.parameters) headers.push_back(p.key);
  headers.push_back(out.spec.metric + " (mean +- std)");
  headers.push_back("seeds");
  headers.push_back("trials");
  std::vector<std::vector<std::string>> cells;
  for (const ConfigResult& c : rankConfigs(out)) {
    std::vector<std::string> row = {std::to_string(c.config)};
    for (const SweepParameter& p : out.spec.parameters)
      row.push_back(c.values.contains(p.key) ? trialCell(c.values[p.key]) : "-");
    row.push_back(!c.mean ? "-"
                  : c.std ? formatHuman(*c.mean) + " +- " + formatHuman(*c.std)
                          : formatHuman(*c.mean));
    row.push_back(std::to_string(c.n) + "/" + std::to_string(c.trials.size()));
    std::string trials;
    for (int64_t t : c.trials) trials += (trials.empty() ? "" : ",") + std::to_string(t);
    row.push_back(trials);
    cells.push_back(std::move(row));
  }
  std::printf("\nover %d seeds, best mean first:\n", out.spec.seeds);
  printTable(headers, cells);
}

/// Each parameter's Spearman rho with the objective, largest |rho| first.
void printImportance(const SweepView& view) {
  std::string line;
  for (const ParameterImportance& p : parameterImportance(view))
    line += (line.empty() ? "" : ", ") + p.key + " " +
            (p.rho ? formatHuman(*p.rho) + " (" + std::to_string(p.n) + " trials)"
                   : "- (" + p.none_because + ")");
  if (!line.empty())
    std::printf("\nimportance (Spearman's rho of each parameter with %s, largest |rho| first): "
                "%s\n", view.metric.c_str(), line.c_str());
}

void printOutcome(const SweepOutcome& out) {
  std::vector<std::string> headers = {"trial", "state"};
  std::vector<std::string> keys;
  for (const SweepParameter& p : out.spec.parameters) keys.push_back(p.key);
  if (out.spec.seeds > 1) keys.push_back("training.seed");
  if (out.spec.seeds > 1 && out.spec.seeds_data) keys.push_back("data.seed");
  headers.insert(headers.end(), keys.begin(), keys.end());
  headers.push_back(out.spec.metric);
  headers.push_back("run");
  std::vector<std::vector<std::string>> cells;
  for (const TrialLine& t : rankTrials(out)) {
    std::vector<std::string> row = {std::to_string(t.trial), t.state};
    if (t.state == "completed" && !t.run_status.empty() && t.run_status != "completed")
      row[1] += " (" + t.run_status + ")";
    for (const std::string& k : keys)
      row.push_back(t.values.contains(k) ? trialCell(t.values[k]) : "-");
    row.push_back(t.objective ? formatHuman(*t.objective) : "-");
    row.push_back(t.run);
    cells.push_back(std::move(row));
  }
  std::printf("\n");
  printTable(headers, cells);
}

}  // namespace

SweepCommand::SweepCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "sweep",
          "Search over settings: run a sweep file's trials (grid, seeded random or tpe) as `train` "
          "processes on this machine or as Slurm jobs, `concurrent` at a time, into a sweep "
          "folder; --resume continues one "
          "after an interrupt or a crash (README \"Sweeps\")")) {
  nonEmptyPath(sub_->add_option("file", file_, "The sweep file (JSON)"));
  nonEmptyPath(sub_->add_option("--out", out_,
                                "The sweep folder, new or empty (default runs/<name>)"));
  nonEmptyPath(sub_->add_option("--resume", resume_,
                                "Continue the sweep in this folder: finished trials are kept, "
                                "interrupted ones go on from their last.pt"));
  sub_->add_flag("--json", json_, "Print the final table as JSON (best first)");
  sub_->add_flag("--dry-run", dry_run_,
                 "Check the sweep file and print the trials it would run, without running them");
  sub_->footer(
      "The sweep file (JSON):\n"
      "  {\"name\": \"lr-width\",\n"
      "   \"base\": {\"preset\": \"moons\", \"set\": {\"training.epochs\": 3}},\n"
      "   \"parameters\": {\"optimizer.lr\": {\"log_uniform\": [1e-4, 1e-1]},\n"
      "                  \"model.hidden\": {\"choices\": [[16], [64], [16, 16]]}},\n"
      "   \"method\": \"random\", \"seed\": 1, \"max_trials\": 8, \"concurrent\": 2,\n"
      "   \"objective\": {\"metric\": \"best_val_loss\", \"goal\": \"minimize\"},\n"
      "   \"pruner\": {\"kind\": \"none\"}, \"executor\": {\"kind\": \"local\"}}\n"
      "base: \"preset\" or \"config\" (a file, relative to the sweep file) and \"set\" (keys as --set).\n"
      "parameters: any value key of `config --keys` with \"choices\" [values], \"uniform\" or\n"
      "  \"log_uniform\" [low, high], or \"int_uniform\" [low, high] (both ends included).\n"
      "method: grid (every combination, scikit-learn's ParameterGrid order), random (seeded;\n"
      "  without replacement over a discrete space), tpe (Optuna's TPE, python3-optuna).\n"
      "max_trials (default: the grid's size, else 10), concurrent (default 1), seeds (each\n"
      "  configuration with N training seeds; seeds_data: data seeds too).\n"
      "objective: a number of the runs table (best_val_loss, best_val_accuracy, final_val_loss,\n"
      "  test_accuracy, ...) and goal minimize or maximize.\n"
      "pruner: none, median (warmup_epochs, startup_trials) or successive_halving\n"
      "  (min_epochs, reduction_factor).\n"
      "executor: local, or slurm (partition, time_limit, cpus_per_trial, sbatch_args): each trial\n"
      "  a Slurm job; the sweep folder on a file system the nodes share.\n"
      "The sweep folder: sweep.json, base.json, trials.jsonl (one line per state change) and a\n"
      "run folder per trial. Exit 0 when every trial ended, 2 for a bad file (naming the key),\n"
      "130/143 when interrupted (then `sweep --resume DIR`).");
}

bool SweepCommand::parsed() const { return sub_->parsed(); }

int SweepCommand::run() const {
  if (file_.empty() && resume_.empty()) {
    printError("sweep: give a sweep file (sweep FILE) or a sweep folder to continue "
               "(sweep --resume DIR); --help describes the file");
    return kExitUsage;
  }
  if (!file_.empty() && !resume_.empty()) {
    printError("sweep: give a sweep file or --resume DIR, not both");
    return kExitUsage;
  }
  if (!resume_.empty() && (!out_.empty() || dry_run_)) {
    printError("sweep --resume DIR continues the sweep in DIR: --out and --dry-run do not apply");
    return kExitUsage;
  }
  SweepSpec spec;
  if (!file_.empty()) {
    spec = readSweepFile(file_);  // Error(Config): exit 2, before anything runs
    if (dry_run_) {
      const SweepPlan plan = planTrials(spec);
      for (const TrialValues& v : plan.trials) trialConfig(spec, v);
      if (json_) {
        json j = {{"sweep", spec.name}, {"method", spec.method}, {"seed", spec.seed},
                  {"seed_given", spec.seed_given}, {"trials", plan.trials}};
        if (!plan.note.empty()) j["note"] = plan.note;
        std::printf("%s\n", j.dump(2).c_str());
      } else {
        if (!plan.note.empty()) std::printf("note: %s\n", plan.note.c_str());
        if (spec.method == "tpe")
          std::printf("tpe asks Optuna for each trial while the sweep runs, from the results so "
                      "far: there is no list to show before (up to %lld trials)\n",
                      static_cast<long long>(spec.max_trials));
        for (size_t i = 0; i < plan.trials.size(); ++i)
          std::printf("trial %zu: %s\n", i, plan.trials[i].dump().c_str());
        if (spec.executor == "slurm") {
          const size_t jobs = spec.method == "tpe" ? 1 : std::min<size_t>(plan.trials.size(), 1000);
          std::printf("slurm: sbatch %s SCRIPT\n",
                      joinCommandLine(sbatchOptions(spec, fs::absolute(!out_.empty() ? fs::path(out_)
                                                                       : fs::path("runs") / spec.name)
                                                        .lexically_normal(),
                                                    jobs))
                          .c_str());
        }
        if (!spec.seed_given && spec.method == "random")
          std::printf("(random: the sweep draws its seed when it starts; give \"seed\" to "
                      "fix the trials)\n");
      }
      return kExitOk;
    }
  }
  const fs::path dir = fs::absolute(!resume_.empty() ? fs::path(resume_)
                                    : !out_.empty()   ? fs::path(out_)
                                                      : fs::path("runs") / spec.name)
                           .lexically_normal();
  SignalWatcher::blockSignals();
  std::atomic<int> stop{0};
  SweepRunOptions options;
  options.dir = dir;
  options.engine = ownExecutable();
  options.stop_signal = &stop;
  options.say = [this](const std::string& line) {
    std::fprintf(json_ ? stderr : stdout, "%s\n", line.c_str());
    std::fflush(json_ ? stderr : stdout);
  };
  options.warn = [](const std::string& line) {
    std::fprintf(stderr, "%s: warning: %s\n", kProgram, line.c_str());
  };
  SignalWatcher watcher([&](int sig) {
    std::fprintf(stderr, "\n%s: %s received: stopping the running trials (they save last.pt); "
                         "continue with `sweep --resume %s`\n",
                 kProgram, strsignal(sig), dir.c_str());
    std::fflush(stderr);
    stop = sig;
  });
  const SweepOutcome out = resume_.empty() ? startSweep(spec, options) : resumeSweep(options);
  watcher.stop();
  if (json_) {
    std::printf("%s\n", outcomeJson(out, dir).dump(2).c_str());
  } else {
    if (!out.note.empty()) std::printf("note: %s\n", out.note.c_str());
    printOutcome(out);
    if (out.spec.seeds > 1) printConfigs(out);
    printImportance(readSweepView(dir));
    if (out.exit_code != 0)
      std::printf("\nstopped: continue with `%s sweep --resume %s`\n", kProgram, dir.c_str());
  }
  return out.exit_code;
}

}  // namespace trainscope::cli
