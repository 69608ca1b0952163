#include "core/run/records.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/run/records_json.h"
#include "core/run/csv_columns.h"
#include "core/system/overloaded.h"
#include "core/system/noise.h"

namespace trainscope {

namespace {

constexpr StopReason kStopReasons[] = {
    StopReason::Completed,   StopReason::Stopped, StopReason::NonFinite, StopReason::EarlyStop,
    StopReason::Interrupted, StopReason::Error,   StopReason::Diverged,  StopReason::Pruned};

constexpr EventKind kEventKinds[] = {
    EventKind::RunStarted,    EventKind::Paused,           EventKind::Resumed,
    EventKind::Stopped,       EventKind::NonFinite,        EventKind::EarlyStop,
    EventKind::Overfitting,   EventKind::CheckpointSaved,  EventKind::CheckpointLoaded,
    EventKind::ConfigChanged, EventKind::Slowdown,         EventKind::Finished,
    EventKind::Error,         EventKind::CheckpointFailed, EventKind::WeightsImported,
    EventKind::MemoryWarning, EventKind::Diverged,         EventKind::ClipWarning,
    EventKind::Diagnosis,     EventKind::RolledBack,       EventKind::GroupFormed,
    EventKind::ValidationCost, EventKind::DataWarning,     EventKind::ModelWarning,
    EventKind::AugmentedValidation};

}  // namespace

std::optional<StopReason> stopReasonFromString(const std::string& text) {
  for (StopReason r : kStopReasons)
    if (toString(r) == text) return r;
  return std::nullopt;
}

std::string toString(EventKind kind) {
  switch (kind) {
    case EventKind::RunStarted:
      return "run_started";
    case EventKind::Paused:
      return "paused";
    case EventKind::Resumed:
      return "resumed";
    case EventKind::Stopped:
      return "stopped";
    case EventKind::NonFinite:
      return "non_finite";
    case EventKind::EarlyStop:
      return "early_stop";
    case EventKind::Overfitting:
      return "overfitting";
    case EventKind::CheckpointSaved:
      return "checkpoint_saved";
    case EventKind::CheckpointLoaded:
      return "checkpoint_loaded";
    case EventKind::ConfigChanged:
      return "config_changed";
    case EventKind::Slowdown:
      return "slowdown";
    case EventKind::Finished:
      return "finished";
    case EventKind::Error:
      return "error";
    case EventKind::CheckpointFailed:
      return "checkpoint_failed";
    case EventKind::WeightsImported:
      return "weights_imported";
    case EventKind::MemoryWarning:
      return "memory_warning";
    case EventKind::Diverged:
      return "diverged";
    case EventKind::ClipWarning:
      return "clip_warning";
    case EventKind::Diagnosis:
      return "diagnosis";
    case EventKind::RolledBack:
      return "rolled_back";
    case EventKind::GroupFormed:
      return "group_formed";
    case EventKind::ValidationCost:
      return "validation_cost";
    case EventKind::DataWarning:
      return "data_warning";
    case EventKind::ModelWarning:
      return "model_warning";
    case EventKind::AugmentedValidation:
      return "augmented_validation";
  }
  return "error";
}

std::optional<EventKind> eventKindFromString(const std::string& text) {
  for (EventKind k : kEventKinds)
    if (toString(k) == text) return k;
  return std::nullopt;
}

std::string formatRate(double r) {
  // Integer arithmetic only: the decimal point must not follow the process locale.
  if (!std::isfinite(r) || r < 0) return "?/s";
  auto tenths = [](double v, const char* unit) {
    const long long t = std::llround(v * 10);
    return std::to_string(t / 10) + "." + std::to_string(t % 10) + unit;
  };
  if (r < 999.5) return std::to_string(std::llround(r)) + "/s";
  if (r < 9950) return tenths(r / 1e3, "k/s");
  if (r < 999500) return std::to_string(std::llround(r / 1e3)) + "k/s";
  return tenths(r / 1e6, "M/s");
}

std::string describeThreadDetail(const ThreadChoice& c) {
  if (!c.automatic) return "";
  std::string d = "auto: ";
  if (c.rates.empty()) {
    d += std::to_string(c.max_threads) + (c.max_threads == 1 ? " core" : " cores") + " available";
  } else {
    bool busy = false;
    for (size_t i = 0; i < c.rates.size(); ++i) {
      const RateSpread spread = rateSpread(c.rates[i].rounds);
      d += (i ? ", " : "") + std::to_string(c.rates[i].threads) + " = ";
      if (spread.busy) {
        busy = true;
        std::string low = formatRate(spread.low);
        low.resize(low.size() - 2);  // "40k/s" -> "40k": "40k-66k/s"
        d += low + "-" + formatRate(spread.high);
      } else {
        d += formatRate(c.rates[i].samples_per_second);
      }
    }
    // Not "busy": short rounds of a heavy model still warm up (a CNN's rates rose 390, 490,
    // 750/s over three rounds on an idle machine), so the cause is not known, only the spread.
    if (busy) d += "; rates varied over 20% between rounds (other programs or warm-up): an uncertain choice";
  }
  if (c.limited_by_omp)
    d += "; OMP_NUM_THREADS=" + std::to_string(c.max_threads) + " is the largest candidate";
  return d;
}

std::string describeThreads(const ThreadChoice& c) {
  std::string s = std::to_string(c.threads) + (c.threads == 1 ? " thread" : " threads");
  const std::string detail = describeThreadDetail(c);
  return detail.empty() ? s : s + " (" + detail + ")";
}

int64_t ValidationDetail::cellSampleLimit(int64_t classes, int64_t values) {
  const int64_t cells = std::max<int64_t>(1, classes * classes);
  const int64_t fit = kCellValues / std::max<int64_t>(1, cells * values);
  return std::clamp<int64_t>(fit, 1, kCellSamples);
}

std::string toString(StopReason reason) {
  switch (reason) {
    case StopReason::Completed:
      return "completed";
    case StopReason::Stopped:
      return "stopped";
    case StopReason::NonFinite:
      return "non_finite";
    case StopReason::EarlyStop:
      return "early_stop";
    case StopReason::Interrupted:
      return "interrupted";
    case StopReason::Error:
      return "error";
    case StopReason::Diverged:
      return "diverged";
    case StopReason::Pruned:
      return "pruned";
  }
  return "error";
}

nlohmann::json jsonNumber(double value) {
  if (!std::isfinite(value)) return formatNumber(value);
  return value;
}

std::optional<double> jsonDouble(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  if (j.is_string())
    if (auto v = parseNumber(j.get<std::string>())) return v;
  return j.get<double>();  // any other string throws type_error
}

namespace {
nlohmann::json optJson(const std::optional<double>& v) {
  return v ? jsonNumber(*v) : nlohmann::json(nullptr);
}
}  // namespace

const char* metricsCsvHeader() {
  static const std::string header = csvHeader(metricsCsvColumns());
  return header.c_str();
}

std::string toCsvRow(const EpochRecord& r) { return csvRow(r, metricsCsvColumns()); }

nlohmann::ordered_json epochToJson(const EpochRecord& r) {
  nlohmann::ordered_json j;  // ordered: keys in metrics.csv column order
  for (const CsvColumn<EpochRecord>& c : metricsCsvColumns())
    std::visit(Overloaded{[&](int64_t EpochRecord::*m) { j[c.name] = r.*m; },
                          [&](double EpochRecord::*m) { j[c.name] = jsonNumber(r.*m); },
                          [&](std::optional<double> EpochRecord::*m) { j[c.name] = optJson(r.*m); }},
               c.member);
  return j;
}

const char* stepsCsvHeader() {
  static const std::string header = csvHeader(stepsCsvColumns());
  return header.c_str();
}

std::string toCsvRow(const StepRecord& r) { return csvRow(r, stepsCsvColumns()); }

nlohmann::json toJson(const Event& e) {
  nlohmann::json j = {
      {"step", e.step}, {"epoch", e.epoch}, {"kind", toString(e.kind)}, {"message", e.message}};
  if (e.value) j["value"] = jsonNumber(*e.value);
  if (!e.what.empty()) j["what"] = e.what;
  if (!e.file.empty()) j["file"] = e.file;
  if (!e.values.empty()) {
    nlohmann::json values = nlohmann::json::array();
    for (double v : e.values) values.push_back(jsonNumber(v));
    j["values"] = values;
  }
  // A roll-back from step `step` to the snapshot at `value`: the rows of the steps between
  // were written and are trained again (the files are append-only; readers keep the latest).
  if (e.kind == EventKind::RolledBack && e.what == "step" && e.value && e.step > *e.value)
    j["superseded_steps"] = {static_cast<int64_t>(*e.value) + 1, e.step};
  return j;
}

namespace {

/// summary.json `diagnosis`: {"kind", "summary", "evidence", "checks"} with the findings' codes
/// and numbers beside their English texts ("evidence_findings", "checks_findings"): a front end
/// words them in its language from these (gui/finding_text.h), as it does live. A non-finite
/// value is null. Files written before the findings hold the texts only.
JsonField<RunSummary> diagnosisField() {
  JsonField<RunSummary> f;
  f.key = "diagnosis";
  f.write = [](const RunSummary& s, nlohmann::json& j) {
    if (!s.diagnosis) return false;
    auto texts = [](const std::vector<Finding>& findings) {
      std::vector<std::string> out;
      for (const Finding& f : findings) out.push_back(f.text);
      return out;
    };
    auto details = [](const std::vector<Finding>& findings) {
      nlohmann::json out = nlohmann::json::array();
      for (const Finding& f : findings) {
        nlohmann::json values = nlohmann::json::array();
        for (double v : f.values)
          values.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json());
        out.push_back({{"code", f.code}, {"values", values}, {"name", f.name}});
      }
      return out;
    };
    j = {{"kind", s.diagnosis->kind},
         {"summary", s.diagnosis->summary},
         {"evidence", texts(s.diagnosis->evidence)},
         {"checks", texts(s.diagnosis->checks)},
         {"evidence_findings", details(s.diagnosis->evidence)},
         {"checks_findings", details(s.diagnosis->checks)}};
    return true;
  };
  f.read = [](const nlohmann::json& d, RunSummary& s) {
    if (!d.is_object()) return;
    Diagnosis dx;
    dx.kind = d.at("kind").get<std::string>();
    dx.summary = d.value("summary", "");
    dx.epoch = s.epochs_completed;  // read before (field order)
    auto findings = [&](const std::string& key) {
      std::vector<Finding> out;
      if (d.contains(key))
        for (const nlohmann::json& text : d.at(key))
          out.push_back({"", {}, "", text.get<std::string>()});
      const std::string detail_key = key + "_findings";
      if (d.contains(detail_key) && d.at(detail_key).size() == out.size())
        for (std::size_t i = 0; i < out.size(); ++i) {
          const nlohmann::json& f = d.at(detail_key).at(i);
          out[i].code = f.value("code", "");
          out[i].name = f.value("name", "");
          for (const nlohmann::json& v : f.value("values", nlohmann::json::array()))
            out[i].values.push_back(v.is_number() ? v.get<double>() : std::nan(""));
        }
      return out;
    };
    dx.evidence = findings("evidence");
    dx.checks = findings("checks");
    s.diagnosis = dx;
  };
  return f;
}

/// summary.json `final_metrics`: the last epoch, its keys the metrics.csv columns (a plain,
/// key-sorted object, as it always was); null before the first epoch ended.
JsonField<RunSummary> finalMetricsField() {
  JsonField<RunSummary> f;
  f.key = "final_metrics";
  f.write = [](const RunSummary& s, nlohmann::json& j) {
    j = s.final_metrics ? nlohmann::json(epochToJson(*s.final_metrics)) : nlohmann::json(nullptr);
    return true;
  };
  f.read = [](const nlohmann::json& m, RunSummary& s) {
    if (!m.is_object()) return;
    EpochRecord r;
    for (const CsvColumn<EpochRecord>& c : metricsCsvColumns()) {
      if (!c.required_column && !m.contains(c.name)) continue;
      const nlohmann::json& v = m.at(c.name);
      std::visit(Overloaded{[&](int64_t EpochRecord::*x) { r.*x = v.get<int64_t>(); },
                            [&](double EpochRecord::*x) { r.*x = jsonDouble(v).value_or(0); },
                            [&](std::optional<double> EpochRecord::*x) { r.*x = jsonDouble(v); }},
                 c.member);
    }
    s.final_metrics = r;
  };
  return f;
}

/// summary.json `stop_reason`: toString's names; another name throws std::domain_error.
JsonField<RunSummary> stopReasonField() {
  JsonField<RunSummary> f;
  f.key = "stop_reason";
  f.required = true;
  f.write = [](const RunSummary& s, nlohmann::json& j) {
    j = toString(s.stop_reason);
    return true;
  };
  f.read = [](const nlohmann::json& v, RunSummary& s) {
    const auto reason = stopReasonFromString(v.get<std::string>());
    if (!reason) throw std::domain_error("unknown stop_reason " + v.dump());
    s.stop_reason = *reason;
  };
  return f;
}

}  // namespace

const std::vector<JsonField<RunSummary>>& summaryJsonFields() {
  using S = RunSummary;
  auto tested = [](const S& s) { return !s.test_weights.empty(); };
  auto failedSaves = [](const S& s) { return s.checkpoints_failed > 0; };
  JsonField<S> best_epoch = jsonField("best_epoch", &S::best_epoch);
  best_epoch.write = [](const S& s, nlohmann::json& j) {  // null when none
    j = s.best_epoch ? nlohmann::json(s.best_epoch) : nlohmann::json(nullptr);
    return true;
  };
  static const std::vector<JsonField<S>> fields = {
      stopReasonField(),
      requiredField("epochs_completed", &S::epochs_completed),
      requiredField("global_step", &S::global_step),
      best_epoch,
      jsonField("best_val_loss", &S::best_val_loss),
      finalMetricsField(),
      jsonField("test_loss", &S::test_loss),
      jsonField("test_accuracy", &S::test_accuracy),
      jsonField("wall_seconds", &S::wall_seconds),
      jsonField("seed", &S::seed),
      jsonField("test_weights", &S::test_weights, tested),
      jsonField("test_epoch", &S::test_epoch, tested),
      jsonField("last_test_loss", &S::last_test_loss,
                [](const S& s) { return s.last_test_loss.has_value(); }),
      jsonField("last_test_accuracy", &S::last_test_accuracy,
                [](const S& s) { return s.last_test_accuracy.has_value(); }),
      jsonField("error", &S::error, [](const S& s) { return !s.error.empty(); }),
      jsonField("skipped_steps", &S::skipped_steps,
                [](const S& s) { return s.skipped_steps > 0; }),
      jsonField("checkpoints_failed", &S::checkpoints_failed, failedSaves),
      jsonField("checkpoint_error", &S::checkpoint_error, failedSaves),
      jsonField("final_state_saved", &S::final_state_saved),
      diagnosisField(),
  };
  return fields;
}

nlohmann::json toJson(const RunSummary& s) {
  nlohmann::json j = nlohmann::json::object();
  writeJsonFields(summaryJsonFields(), s, j);
  return j;
}

}  // namespace trainscope
