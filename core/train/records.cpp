#include "core/train/records.h"

#include <cmath>

#include "core/train/records_json.h"

namespace trainscope {

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
  return "epoch,step,train_loss,val_loss,val_accuracy,lr,epoch_seconds,samples_per_second";
}

std::string toCsvRow(const EpochRecord& r) {
  return std::to_string(r.epoch) + "," + std::to_string(r.step) + "," + formatNumber(r.train_loss) +
         "," + formatNumber(r.val_loss) + "," + opt(r.val_accuracy) + "," + formatNumber(r.lr) +
         "," + formatNumber(r.epoch_seconds) + "," + formatNumber(r.samples_per_second);
}

nlohmann::json toJson(const EpochRecord& r) {
  return {{"epoch", r.epoch},
          {"step", r.step},
          {"train_loss", jsonNumber(r.train_loss)},
          {"val_loss", jsonNumber(r.val_loss)},
          {"val_accuracy", optJson(r.val_accuracy)},
          {"lr", jsonNumber(r.lr)},
          {"epoch_seconds", jsonNumber(r.epoch_seconds)},
          {"samples_per_second", jsonNumber(r.samples_per_second)}};
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
      {"step", e.step}, {"epoch", e.epoch}, {"kind", e.kind}, {"message", e.message}};
  if (e.value) j["value"] = jsonNumber(*e.value);
  if (!e.what.empty()) j["what"] = e.what;
  return j;
}

nlohmann::json toJson(const RunSummary& s) {
  nlohmann::json j = {
      {"stop_reason", toString(s.stop_reason)},
      {"epochs_completed", s.epochs_completed},
      {"global_step", s.global_step},
      {"best_epoch", s.best_epoch ? nlohmann::json(s.best_epoch) : nlohmann::json(nullptr)},
      {"best_val_loss", optJson(s.best_val_loss)},
      {"final_metrics", s.final_metrics ? toJson(*s.final_metrics) : nlohmann::json(nullptr)},
      {"test_loss", optJson(s.test_loss)},
      {"test_accuracy", optJson(s.test_accuracy)},
      {"wall_seconds", jsonNumber(s.wall_seconds)},
      {"seed", s.seed}};
  if (!s.error.empty()) j["error"] = s.error;
  return j;
}

}  // namespace trainscope
