#include "core/run/records.h"

#include <cmath>

#include "core/run/records_json.h"
#include "core/train/monitors/noise.h"

namespace trainscope {

namespace {

constexpr StopReason kStopReasons[] = {
    StopReason::Completed,   StopReason::Stopped, StopReason::NonFinite, StopReason::EarlyStop,
    StopReason::Interrupted, StopReason::Error,   StopReason::Diverged};

constexpr EventKind kEventKinds[] = {
    EventKind::RunStarted,    EventKind::Paused,           EventKind::Resumed,
    EventKind::Stopped,       EventKind::NonFinite,        EventKind::EarlyStop,
    EventKind::Overfitting,   EventKind::CheckpointSaved,  EventKind::CheckpointLoaded,
    EventKind::ConfigChanged, EventKind::Slowdown,         EventKind::Finished,
    EventKind::Error,         EventKind::CheckpointFailed, EventKind::WeightsImported,
    EventKind::MemoryWarning, EventKind::Diverged,         EventKind::ClipWarning,
    EventKind::Diagnosis,     EventKind::RolledBack,       EventKind::GroupFormed,
    EventKind::ValidationCost, EventKind::DataWarning,     EventKind::ModelWarning};

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
  }
  return "error";
}

nlohmann::json jsonNumber(double value) {
  if (!std::isfinite(value)) return formatNumber(value);
  return value;
}

namespace {
std::string opt(const std::optional<double>& v) { return v ? formatNumber(*v) : ""; }
nlohmann::json optJson(const std::optional<double>& v) {
  return v ? jsonNumber(*v) : nlohmann::json(nullptr);
}
}  // namespace

const char* metricsCsvHeader() {
  return "epoch,step,train_loss,val_loss,val_accuracy,lr,epoch_seconds,samples_per_second,"
         "train_accuracy,val_r2,val_mae,val_rmse";
}

std::string toCsvRow(const EpochRecord& r) {
  return std::to_string(r.epoch) + "," + std::to_string(r.step) + "," + formatNumber(r.train_loss) +
         "," + formatNumber(r.val_loss) + "," + opt(r.val_accuracy) + "," + formatNumber(r.lr) +
         "," + formatNumber(r.epoch_seconds) + "," + formatNumber(r.samples_per_second) + "," +
         opt(r.train_accuracy) + "," + opt(r.val_r2) + "," + opt(r.val_mae) + "," + opt(r.val_rmse);
}

nlohmann::ordered_json epochToJson(const EpochRecord& r) {
  nlohmann::ordered_json j;  // ordered: keys in metrics.csv column order
  j["epoch"] = r.epoch;
  j["step"] = r.step;
  j["train_loss"] = jsonNumber(r.train_loss);
  j["val_loss"] = jsonNumber(r.val_loss);
  j["val_accuracy"] = optJson(r.val_accuracy);
  j["lr"] = jsonNumber(r.lr);
  j["epoch_seconds"] = jsonNumber(r.epoch_seconds);
  j["samples_per_second"] = jsonNumber(r.samples_per_second);
  j["train_accuracy"] = optJson(r.train_accuracy);
  j["val_r2"] = optJson(r.val_r2);
  j["val_mae"] = optJson(r.val_mae);
  j["val_rmse"] = optJson(r.val_rmse);
  return j;
}

const char* stepsCsvHeader() {
  return "step,epoch,batch,loss,grad_norm,grad_norm_clipped,lr,loss_scale";
}

std::string toCsvRow(const StepRecord& r) {
  return std::to_string(r.step) + "," + std::to_string(r.epoch) + "," + std::to_string(r.batch) +
         "," + formatNumber(r.loss) + "," + formatNumber(r.grad_norm) + "," +
         formatNumber(r.grad_norm_clipped) + "," + formatNumber(r.lr) + "," + opt(r.loss_scale);
}

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

nlohmann::json toJson(const RunSummary& s) {
  nlohmann::json j = {
      {"stop_reason", toString(s.stop_reason)},
      {"epochs_completed", s.epochs_completed},
      {"global_step", s.global_step},
      {"best_epoch", s.best_epoch ? nlohmann::json(s.best_epoch) : nlohmann::json(nullptr)},
      {"best_val_loss", optJson(s.best_val_loss)},
      // summary.json is a plain (key-sorted) object, as it always was.
      {"final_metrics",
       s.final_metrics ? nlohmann::json(epochToJson(*s.final_metrics)) : nlohmann::json(nullptr)},
      {"test_loss", optJson(s.test_loss)},
      {"test_accuracy", optJson(s.test_accuracy)},
      {"wall_seconds", jsonNumber(s.wall_seconds)},
      {"seed", s.seed}};
  if (!s.test_weights.empty()) {
    j["test_weights"] = s.test_weights;
    j["test_epoch"] = s.test_epoch;
  }
  if (s.last_test_loss) j["last_test_loss"] = jsonNumber(*s.last_test_loss);
  if (s.last_test_accuracy) j["last_test_accuracy"] = jsonNumber(*s.last_test_accuracy);
  if (!s.error.empty()) j["error"] = s.error;
  if (s.skipped_steps > 0) j["skipped_steps"] = s.skipped_steps;
  if (s.checkpoints_failed > 0) {
    j["checkpoints_failed"] = s.checkpoints_failed;
    j["checkpoint_error"] = s.checkpoint_error;
  }
  j["final_state_saved"] = s.final_state_saved;
  auto texts = [](const std::vector<Finding>& findings) {
    std::vector<std::string> out;
    for (const Finding& f : findings) out.push_back(f.text);
    return out;
  };
  // The findings' codes and numbers beside their English texts: a front end words them in its
  // language from these (gui/finding_text.h), as it does live. A non-finite value is null.
  auto details = [](const std::vector<Finding>& findings) {
    nlohmann::json out = nlohmann::json::array();
    for (const Finding& f : findings) {
      nlohmann::json values = nlohmann::json::array();
      for (double v : f.values) values.push_back(std::isfinite(v) ? nlohmann::json(v) : nlohmann::json());
      out.push_back({{"code", f.code}, {"values", values}, {"name", f.name}});
    }
    return out;
  };
  if (s.diagnosis)
    j["diagnosis"] = {{"kind", s.diagnosis->kind},
                      {"summary", s.diagnosis->summary},
                      {"evidence", texts(s.diagnosis->evidence)},
                      {"checks", texts(s.diagnosis->checks)},
                      {"evidence_findings", details(s.diagnosis->evidence)},
                      {"checks_findings", details(s.diagnosis->checks)}};
  return j;
}

}  // namespace trainscope
