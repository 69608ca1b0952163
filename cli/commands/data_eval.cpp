// `trainscope-cli data`: the import report of a config's data (core/data/data_report.h);
// `trainscope-cli evaluate CHECKPOINT`: a checkpoint's model evaluated without training
// (core/train/probes/evaluation.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "cli/output_file.h"
#include "core/io/atomic_file.h"
#include "core/config/config_json.h"
#include "core/data/data_report.h"
#include "core/errors.h"
#include "core/train/state/checkpoint.h"
#include "core/system/number_format.h"
#include "core/run/records_json.h"
#include "core/train/probes/evaluation.h"

namespace trainscope::cli {
namespace {

/// The first bytes of a --scores file: how a later --scores recognises one it may replace.
constexpr const char* kScoresHeader = "index,label,score_0";

/// --scores: `index,label,score_0,...` then one row per sample, numbers in their shortest
/// round-trip form (scikit-learn reading them gets the values TrainScope computed with).
std::string scoresCsv(const EvaluationResult& r) {
  const std::size_t k = r.classes.size();
  std::string out = "index,label";
  for (std::size_t c = 0; c < k; ++c) out += ",score_" + std::to_string(c);
  out += "\n";
  for (std::size_t i = 0; i < r.true_class.size(); ++i) {
    out += std::to_string(i < r.sample_index.size() ? r.sample_index[i] : static_cast<int64_t>(i));
    out += "," + std::to_string(r.true_class[i]);
    for (std::size_t c = 0; c < k; ++c) out += "," + formatNumber(r.scores[i * k + c]);
    out += "\n";
  }
  return out;
}

}  // namespace

DataCommand::DataCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "data",
          "Import report of a config's data before training: samples per split, input shape, "
          "task, classes with counts, warnings (imbalance, duplicates, constant columns), the "
          "first rows and the memory")) {
  sub_->add_option("--preset", preset_, "Built-in preset to start from");
  nonEmptyPath(sub_->add_option("--config", config_file_, "JSON config file (may be partial)"));
  sub_->add_option("--set", sets_, "KEY=VALUE override, repeatable (e.g. --set data.source=csv "
                                   "--set data.csv.path=table.csv)")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  sub_->add_flag("--json", json_, "Print the report as one JSON object");
}

bool DataCommand::parsed() const { return sub_->parsed(); }

int DataCommand::run() const {
  const TrainConfig config = resolveConfig(preset_, config_file_, sets_);
  if (preset_.empty() && config_file_.empty() && !sets_.empty()) noteDefaultPreset(config);
  const DataReport report = dataReport(config.data);
  if (json_)
    std::printf("%s\n", toJson(report).dump(2).c_str());
  else
    std::printf("%s", describe(report).c_str());
  return kExitOk;
}

EvaluateCommand::EvaluateCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "evaluate",
          "Evaluate a checkpoint's model without training: loss, accuracy, per-class precision, "
          "recall, F1, average precision and ROC AUC (one class against the rest, as "
          "scikit-learn computes them) and the confusion matrix, on its own data or on other "
          "data of the same shape, with the preprocessing the checkpoint recorded")) {
  nonEmptyPath(sub_->add_option("checkpoint", checkpoint_, "TrainScope checkpoint (.pt)")
                   ->required());
  nonEmptyPath(sub_->add_option(
      "--config", config_file_,
      "Evaluate on the data section of this config file instead of the checkpoint's data"));
  sub_->add_option("--set", sets_,
                   "KEY=VALUE override of the data keys (data.*), repeatable: of --config's "
                   "data, else of the checkpoint's own (e.g. --set data.csv.path=new.csv)")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  sub_->add_option("--split", split_, "Which split: val (default), test or train")
      ->check(CLI::IsMember({"train", "val", "test"}));
  sub_->add_flag("--allow-changed-data", allow_changed_data_,
                 "Go on when a data file changed since the checkpoint's run read it (size or "
                 "SHA-256; refused otherwise, exit 2), with a warning");
  sub_->add_option("--scores", scores_,
                   "Classification: write one CSV row per sample, index,label,score_0,...,"
                   "score_{C-1} (its number in the source as split.json numbers it, its true "
                   "class, the softmax probabilities), for other tools; an existing file is "
                   "replaced only if TrainScope wrote it")
      ->type_name("FILE");
  sub_->add_flag("--json", json_,
                 "Print one JSON object, with every sample's prediction and its number in the "
                 "source (split.json's numbering)");
}

bool EvaluateCommand::parsed() const { return sub_->parsed(); }

int EvaluateCommand::run() const {
  EvaluationRequest req;
  req.checkpoint = checkpoint_;
  req.split = split_;
  req.allow_changed_data = allow_changed_data_;
  if (!config_file_.empty() || !sets_.empty()) {
    for (const std::string& s : sets_)
      if (s.rfind("data.", 0) != 0)
        throw Error(ErrorCode::Config, s,
                    "evaluate --set takes data keys only (data.*), got '" + s + "'");
    if (!config_file_.empty()) {
      req.data = resolveConfig("", config_file_, sets_).data;
    } else {  // --set alone changes the checkpoint's own data keys
      nlohmann::json j = configToJson(checkpointConfig(inspectCheckpoint(checkpoint_)));
      for (const std::string& s : sets_) applySet(j, s);
      req.data = configFromJson(j).data;
    }
  }
  if (!scores_.empty()) {  // a run folder's files are the run's record, never replaced
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::absolute(scores_, ec).lexically_normal();
    if (std::filesystem::exists(p, ec) && std::filesystem::exists(p.parent_path() / "run.json", ec))
      throw Error(ErrorCode::Config, "--scores",
                  "--scores " + p.string() + " is a file of the run folder " +
                      p.parent_path().string() + "; write the scores outside it");
  }
  const std::filesystem::path scores_file =
      scores_.empty() ? std::filesystem::path()
                      : checkOutputFile(scores_, "--scores", startsWith(kScoresHeader));
  const EvaluationResult r = evaluateCheckpoint(req);
  if (!scores_file.empty()) {
    if (r.task != "classification")
      throw Error(ErrorCode::Config, "--scores",
                  "--scores writes class probabilities, but this checkpoint's task is " + r.task +
                      " (--json has every sample's prediction)");
    writeFileAtomic(scores_file, scoresCsv(r));
  }
  for (const std::string& w : r.warnings)
    std::fprintf(stderr, "warning: data: %s (--allow-changed-data): the split and metrics may not "
                         "be the run's\n", w.c_str());
  if (json_) {
    nlohmann::ordered_json j;
    j["checkpoint"] = r.checkpoint;
    j["split"] = r.split;
    j["data_changes"] = r.warnings;
    j["task"] = r.task;
    j["samples"] = r.samples;
    j["loss"] = jsonNumber(r.loss);
    j["accuracy"] = r.accuracy ? jsonNumber(*r.accuracy) : nlohmann::json(nullptr);
    for (auto [key, value] : {std::pair{"r2", &r.r2}, std::pair{"mae", &r.mae}, std::pair{"rmse", &r.rmse}})
      j[key] = *value ? jsonNumber(**value) : nlohmann::json(nullptr);
    nlohmann::ordered_json classes = nlohmann::ordered_json::array();
    for (const ClassMetrics& c : r.classes)
      classes.push_back(
          {{"name", c.name},
           {"support", c.support},
           {"predicted", c.predicted},
           {"precision", c.precision},
           {"recall", c.recall},
           {"f1", c.f1},
           {"average_precision",
            c.average_precision ? jsonNumber(*c.average_precision) : nlohmann::json(nullptr)},
           {"roc_auc", c.roc_auc ? jsonNumber(*c.roc_auc) : nlohmann::json(nullptr)}});
    j["classes"] = classes;
    j["confusion"] = r.confusion;
    if (r.task == "classification")
      j["predicted_class"] = r.predicted_class;
    else
      j["predicted_value"] = r.predicted_value;
    j["sample_index"] = r.sample_index.empty() ? nlohmann::json(nullptr)
                                               : nlohmann::json(r.sample_index);
    std::printf("%s\n", j.dump().c_str());
    return kExitOk;
  }
  std::printf("checkpoint  %s\nsplit       %s (%lld samples)\ntask        %s\nloss        %s\n",
              r.checkpoint.c_str(), r.split.c_str(), static_cast<long long>(r.samples),
              r.task.c_str(), formatNumber(r.loss).c_str());
  if (r.accuracy) std::printf("accuracy    %s\n", formatFixed(*r.accuracy, 4).c_str());
  if (r.r2)
    std::printf("R^2         %s\nMAE         %s\nRMSE        %s\n", formatHuman(*r.r2).c_str(),
                formatHuman(r.mae.value_or(0)).c_str(), formatHuman(r.rmse.value_or(0)).c_str());
  if (!r.classes.empty()) {
    size_t width = 5;
    for (const ClassMetrics& c : r.classes) width = std::max(width, c.name.size());
    width = std::min<size_t>(width, 24);
    std::printf("\n%-*s  precision  recall      f1  avg prec  ROC AUC  support\n",
                static_cast<int>(width), "class");
    const auto optional = [](const std::optional<double>& v) {
      return v ? formatFixed(*v, 4) : std::string("-");
    };
    for (const ClassMetrics& c : r.classes)
      std::printf("%-*s  %9s  %6s  %6s  %8s  %7s  %7lld\n", static_cast<int>(width),
                  c.name.substr(0, width).c_str(), formatFixed(c.precision, 4).c_str(),
                  formatFixed(c.recall, 4).c_str(), formatFixed(c.f1, 4).c_str(),
                  optional(c.average_precision).c_str(), optional(c.roc_auc).c_str(),
                  static_cast<long long>(c.support));
    std::printf("\nconfusion matrix (rows: true class, columns: predicted)\n");
    for (size_t i = 0; i < r.confusion.size(); ++i) {
      std::printf("%-*s ", static_cast<int>(width), r.classes[i].name.substr(0, width).c_str());
      for (int64_t v : r.confusion[i]) std::printf(" %6lld", static_cast<long long>(v));
      std::printf("\n");
    }
  }
  return kExitOk;
}

}  // namespace trainscope::cli
