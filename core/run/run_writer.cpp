#include "core/run/run_writer.h"

#include <algorithm>

#include "core/run/run_table.h"
#include "core/run/tensorboard_hparams.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/run/distribution_records.h"
#include "core/run/records_json.h"
#include "core/run/run_dir.h"
#include "core/run/run_reader.h"

namespace trainscope {
namespace {

double unixNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// The value at dotted `key` of a config's JSON (null when it has none).
nlohmann::json configValueAt(const nlohmann::json& config, const std::string& key) {
  const nlohmann::json* at = &config;
  size_t start = 0;
  for (size_t dot;; start = dot + 1) {
    dot = key.find('.', start);
    const std::string part = key.substr(start, dot == std::string::npos ? dot : dot - start);
    if (!at->is_object() || !at->contains(part)) return nullptr;
    at = &(*at)[part];
    if (dot == std::string::npos) return *at;
  }
}

bool tensorboardWanted(const nlohmann::json& config) {
  const auto logging = config.find("logging");
  if (logging == config.end() || !logging->is_object()) return true;
  const auto tb = logging->find("tensorboard");
  return tb == logging->end() || !tb->is_boolean() || tb->get<bool>();
}

void addStep(TensorBoardWriter& tb, const StepRecord& r, double wall_time) {
  std::vector<std::pair<std::string, double>> v{{"train/loss", r.loss},
                                                {"grad_norm", r.grad_norm},
                                                {"grad_norm_clipped", r.grad_norm_clipped},
                                                {"lr", r.lr}};
  if (r.loss_scale) v.emplace_back("loss_scale", *r.loss_scale);
  tb.addScalars(v, r.step, wall_time);
}

void addEpoch(TensorBoardWriter& tb, const EpochRecord& r, double wall_time) {
  using hparams::epochTag;  // the tags the HParams dashboard's metrics name too
  std::vector<std::pair<std::string, double>> v{{epochTag("train_loss"), r.train_loss},
                                                {epochTag("val_loss"), r.val_loss}};
  if (r.val_accuracy) v.emplace_back(epochTag("val_accuracy"), *r.val_accuracy);
  if (r.train_accuracy) v.emplace_back(epochTag("train_accuracy"), *r.train_accuracy);
  if (r.val_r2) v.emplace_back(epochTag("val_r2"), *r.val_r2);
  if (r.val_mae) v.emplace_back(epochTag("val_mae"), *r.val_mae);
  if (r.val_rmse) v.emplace_back(epochTag("val_rmse"), *r.val_rmse);
  if (r.samples_per_second > 0) v.emplace_back("samples_per_second", r.samples_per_second);
  v.emplace_back("epoch", static_cast<double>(r.epoch));
  tb.addScalars(v, r.step, wall_time);
}

}  // namespace

RunWriter::RunWriter(const std::filesystem::path& dir, const nlohmann::json& config,
                     const nlohmann::json& run_info)
    : dir_(dir), lock_(dir) {  // the lock first: a second writer is refused before any write
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec)
    throw Error(ErrorCode::Io, dir_.string(),
                "cannot create run directory " + dir_.string() + ": " + ec.message());
  removeStaleRunTemps(dir_);  // ours, of a run killed here: no live process writes here now
  writeFileAtomic(dir_ / "config.json", config.dump(2) + "\n");
  writeFileAtomic(dir_ / "run.json", run_info.dump(2) + "\n");
  metrics_ = std::make_unique<LineFile>(dir_ / "metrics.csv");
  metrics_->append(metricsCsvHeader());
  steps_ = std::make_unique<LineFile>(dir_ / "steps.csv");
  steps_->append(stepsCsvHeader());
  events_ = std::make_unique<LineFile>(dir_ / "events.jsonl");
  start_wall_time_ = unixNow();
  if (tensorboardWanted(config)) tensorboard_ = std::make_unique<TensorBoardWriter>(dir_);
  if (tensorboard_)
    if (const auto sweep = sweepOfRun(dir_)) {
      // A sweep's trial: its hparams for TensorBoard's HParams dashboard, grouped by
      // configuration (the trials of one configuration over seeds share the group).
      nlohmann::json values = nlohmann::json::object();
      for (const std::string& key : sweep->keys) values[key] = configValueAt(config, key);
      in_sweep_ = true;
      tensorboard_->addPluginSummary(hparams::kSessionStartTag, hparams::kPlugin,
                                     hparams::sessionStartContent(values, values.dump(),
                                                                  start_wall_time_),
                                     0, start_wall_time_);
    }
}

RunWriter::~RunWriter() = default;

void RunWriter::writePrefixRows(const std::vector<std::string>& metrics_rows,
                                const std::vector<std::string>& step_rows) {
  for (const auto& row : metrics_rows) metrics_->append(row);
  for (const auto& row : step_rows) steps_->append(row);
  if (!tensorboard_) return;
  // The rows just written, read back as records (the source's own CSV dialect): the source's
  // clock is not recorded, so they carry this run's start time.
  if (!step_rows.empty())
    for (const auto& r : readStepsCsv(dir_ / "steps.csv")) addStep(*tensorboard_, r, start_wall_time_);
  if (!metrics_rows.empty())
    for (const auto& r : readMetricsCsv(dir_ / "metrics.csv"))
      addEpoch(*tensorboard_, r, start_wall_time_);
}

void RunWriter::writeStep(const StepRecord& r) {
  steps_->append(toCsvRow(r));
  if (tensorboard_) addStep(*tensorboard_, r, unixNow());
}
void RunWriter::writeEpoch(const EpochRecord& r) {
  metrics_->append(toCsvRow(r));
  if (tensorboard_) addEpoch(*tensorboard_, r, unixNow());
}
void RunWriter::writeEvent(const Event& e) { events_->append(toJson(e).dump()); }
void RunWriter::writeValidationDetail(const ValidationDetail& d,
                                      const std::vector<std::string>& class_names) {
  if (!tensorboard_ || d.tp_at.empty()) return;
  // tensorboard/plugins/pr_curve/summary.py: rows TP, FP, TN, FN, precision, recall at the
  // thresholds k / (T - 1); precision = TP / max(1e-7, TP + FP), recall = TP / max(1e-7, TP + FN).
  constexpr double kMinimumCount = 1e-7;
  const auto t = static_cast<std::size_t>(ValidationDetail::kThresholds);
  pr_pending_.clear();
  for (std::size_t c = 0; c < d.tp_at.size() && c < d.fp_at.size(); ++c) {
    const std::vector<int64_t>& tp = d.tp_at[c];
    const std::vector<int64_t>& fp = d.fp_at[c];
    if (tp.size() != t || fp.size() != t) continue;
    std::vector<float> v(6 * t);
    for (std::size_t k = 0; k < t; ++k) {
      const double tpk = static_cast<double>(tp[k]), fpk = static_cast<double>(fp[k]);
      const double fnk = static_cast<double>(tp[0] - tp[k]);
      v[k] = static_cast<float>(tpk);
      v[t + k] = static_cast<float>(fpk);
      v[2 * t + k] = static_cast<float>(fp[0] - fp[k]);  // TN
      v[3 * t + k] = static_cast<float>(fnk);
      v[4 * t + k] = static_cast<float>(tpk / std::max(kMinimumCount, tpk + fpk));
      v[5 * t + k] = static_cast<float>(tpk / std::max(kMinimumCount, tpk + fnk));
    }
    const std::string name = c < class_names.size() ? class_names[c] : std::to_string(c);
    pr_pending_.emplace_back("val/pr_curve/" + name, std::move(v));
  }
  pr_pending_step_ = d.step;
  if (pr_written_ == 0 || unixNow() - pr_written_ >= kPrCurveSeconds) writePendingPrCurves();
}

void RunWriter::writePendingPrCurves() {
  if (!tensorboard_ || pr_pending_.empty()) return;
  // PrCurvePluginData { int32 version = 1; uint32 num_thresholds = 2; }
  const std::string content =
      ProtoMessage().varint(1, 0).varint(2, static_cast<uint64_t>(ValidationDetail::kThresholds)).bytes;
  const double now = unixNow();
  try {
    for (const auto& [tag, values] : pr_pending_)
      tensorboard_->addPluginTensor(tag, "pr_curves", content, {6, ValidationDetail::kThresholds},
                                    values, pr_pending_step_, now);
  } catch (const Error&) {
    // Derived pictures (evaluate recomputes them): a full disk is reported by the run's own
    // rows (steps.csv, metrics.csv), which are written next and fail there.
  }
  pr_pending_.clear();
  pr_written_ = now;
}

void RunWriter::writeDistributions(const DistributionRecord& r) {
  if (!tensorboard_) return;
  std::vector<std::pair<std::string, HistogramValues>> histograms;
  const auto add = [&](const std::string& prefix, const std::vector<TensorDistribution>& tensors) {
    for (const TensorDistribution& d : tensors) {
      if (d.count == 0) continue;
      HistogramValues h{d.percentiles[kP0], d.percentiles[kP100], static_cast<double>(d.count),
                        d.sum, d.sum_squares, d.bucket_limit, d.bucket};
      histograms.emplace_back(prefix + d.name, std::move(h));
    }
  };
  add("weights/", r.weights);
  add("gradients/", r.gradients);
  add("activations/", r.activations);
  if (histograms.empty()) return;
  try {
    tensorboard_->addHistograms(histograms, r.step, unixNow());
  } catch (const Error&) {
    // Derived pictures: a full disk is reported by steps.csv and metrics.csv, written next.
  }
}

void RunWriter::writeSummary(const RunSummary& s) {
  writePendingPrCurves();
  writeFileAtomic(dir_ / "summary.json", toJson(s).dump(2) + "\n");
  if (tensorboard_ && in_sweep_) {
    const StopReason r = s.stop_reason;
    const hparams::Status status =
        r == StopReason::Completed || r == StopReason::EarlyStop || r == StopReason::Pruned
            ? hparams::Status::Success
        : r == StopReason::Interrupted || r == StopReason::Stopped ? hparams::Status::Unknown
                                                                   : hparams::Status::Failure;
    const double now = unixNow();
    tensorboard_->addPluginSummary(hparams::kSessionEndTag, hparams::kPlugin,
                                   hparams::sessionEndContent(status, now), s.global_step, now);
  }
}

}  // namespace trainscope
