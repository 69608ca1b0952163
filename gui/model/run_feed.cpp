#include "gui/model/run_feed.h"

#include <cmath>

namespace trainscope {

void feedStep(RunHistory& history, const StepRecord& step) {
  const double x = static_cast<double>(step.step);
  history.append(series::kStepLoss, x, step.loss);
  history.append(series::kStepGradNorm, x, step.grad_norm);
  history.append(series::kStepGradNormClipped, x, step.grad_norm_clipped);
  history.append(series::kStepLr, x, step.lr);
  // The threshold in force at each step: it moves when max_norm is changed mid-run.
  if (step.max_norm) history.append(series::kStepMaxNorm, x, *step.max_norm);
  if (step.clipped) history.append(series::kStepClipped, x, step.grad_norm);
  if (step.loss_scale) history.append(series::kStepLossScale, x, *step.loss_scale);
  if (step.loss_scale && !step.applied && std::isfinite(step.loss))
    history.append(series::kStepScalerSkipped, x, *step.loss_scale);
}

void feedEpoch(RunHistory& history, const EpochRecord& epoch) {
  const double x = static_cast<double>(epoch.step);
  history.append(series::kEpochTrainLoss, x, epoch.train_loss);
  history.append(series::kEpochValLoss, x, epoch.val_loss);
  history.append(series::kEpochLr, x, epoch.lr);
  if (epoch.val_accuracy) history.append(series::kEpochValAccuracy, x, *epoch.val_accuracy);
  if (epoch.train_accuracy) history.append(series::kEpochTrainAccuracy, x, *epoch.train_accuracy);
  history.append(series::kEpochNumber, x, static_cast<double>(epoch.epoch));
  history.append(series::kEpochSeconds, x, epoch.epoch_seconds);
  history.append(series::kEpochSamplesPerSecond, x, epoch.samples_per_second);
}

void feedLayerStats(RunHistory& history, const LayerStatsRecord& stats) {
  const double x = static_cast<double>(stats.step);
  for (std::size_t i = 0; i < stats.names.size(); ++i) {
    if (i < stats.grad_norm.size())
      history.append(series::layerGradNorm(stats.names[i]), x, stats.grad_norm[i]);
    if (i < stats.update_ratio.size())
      history.append(series::layerUpdateRatio(stats.names[i]), x, stats.update_ratio[i]);
  }
}

void feedRun(RunHistory& history, const RunRecord& run) {
  for (const EpochRecord& e : run.epochs) feedEpoch(history, e);
  for (const StepRecord& s : run.steps) feedStep(history, s);
  for (const LayerStatsRecord& l : run.layers) feedLayerStats(history, l);
}

void feedLiveChange(TrainConfig& live, const Event& event) {
  if (event.kind != EventKind::ConfigChanged || !event.value) return;
  const double value = *event.value;
  if (event.what == "optimizer.lr") {
    live.optimizer.lr = value;
  } else if (event.what == "training.amp") {
    live.training.amp = value != 0;
  } else if (event.what == "training.clip.max_norm" || event.what == "training.clip.enabled") {
    live.training.clip.enabled = event.what == "training.clip.max_norm";
    live.training.clip.max_norm = value;
  }
}

}  // namespace trainscope
