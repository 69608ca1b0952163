#include "core/train/loop/epoch_end.h"

#include <torch/nn/module.h>
#include <torch/utils.h>

#include <limits>

#include "core/config/train_config.h"
#include "core/system/number_format.h"
#include "core/optim/optimizer_factory.h"

namespace trainscope {

void setLearningRate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& g : optimizer.param_groups()) g.options().set_lr(lr);
}

void prepareSchedules(TrainState& s, const TrainConfig& c) {
  s.scheduler = makeScheduler(c.scheduler, c.optimizer.lr);
  if (s.scheduler) setLearningRate(*s.optimizer, s.scheduler->lr());
  s.monitor = c.training.monitor;
  s.early_stopping.reset();
  if (c.training.early_stopping.enabled)
    s.early_stopping.emplace(c.training.early_stopping, monitorMaximizes(c.training.monitor));
  s.overfitting.emplace(c.training.early_stopping.patience);
  s.best_weights.clear();
}

EpochEndResult afterValidation(TrainState& s, EpochRecord& r, const TrainingConfig& t) {
  EpochEndResult out;
  if (s.scheduler) setLearningRate(*s.optimizer, s.scheduler->step(r.val_loss));
  if (s.overfitting) {
    if (auto o = s.overfitting->update(r.epoch, r.train_loss, r.val_loss)) {
      Event e{r.step,
              r.epoch,
              EventKind::Overfitting,
              "overfitting: the mean validation loss of the last " +
                  std::to_string(OverfittingDetector::kMeanEpochs) + " epochs (now " +
                  formatHuman(o->val_mean) + ") has stayed over " +
                  formatHuman(OverfittingDetector::kRise) + "x its lowest value " +
                  formatHuman(o->best_val_mean) + ", beyond " +
                  formatHuman(OverfittingDetector::kNoiseSigmas) +
                  " standard errors of its own noise, for " +
                  std::to_string(s.overfitting->patience()) +
                  " epochs while training loss fell from " + formatHuman(o->train_loss_at_onset) +
                  " to " + formatHuman(o->train_loss) + "; the onset is the best epoch " +
                  std::to_string(o->onset_epoch) + " (validation loss " +
                  formatHuman(o->best_val_loss) + ")",
              static_cast<double>(o->onset_epoch),
              "onset_epoch",
              ""};
      out.events.push_back(e);
    }
  }
  if (s.early_stopping) {
    EarlyStopping& es = *s.early_stopping;
    const bool fire =
        es.update(r.epoch, monitoredValue(r, t.monitor).value_or(std::numeric_limits<double>::quiet_NaN()));
    if (es.improved() && t.early_stopping.restore_best_weights) {
      torch::NoGradGuard no_grad;
      const auto tensors = stateTensors(*s.model);
      s.best_weights.clear();
      for (const auto& x : tensors) s.best_weights.push_back(x.detach().clone());
    }
    r.early_stop_at = es.wouldFireAt();
    if (fire) {
      out.stop = true;
      const std::string what = t.monitor == "val_loss" ? "validation loss" : t.monitor;
      std::string m = "early stopping: " + what + " has not improved for " +
                      std::to_string(es.wait()) + " epochs (patience " +
                      std::to_string(t.early_stopping.patience) + "); best " +
                      (es.best() ? formatHuman(*es.best()) : std::string("none")) + " at epoch " +
                      std::to_string(es.bestEpoch());
      if (t.early_stopping.restore_best_weights && !s.best_weights.empty())
        m += "; the weights of epoch " + std::to_string(es.bestEpoch()) + " are restored";
      out.events.push_back(
          Event{r.step, r.epoch, EventKind::EarlyStop, m, es.best(), "best_" + t.monitor, ""});
    }
  }
  return out;
}

bool restoreBestWeights(TrainState& s) {
  const auto tensors = stateTensors(*s.model);
  if (s.best_weights.size() != tensors.size()) return false;
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < tensors.size(); ++i) tensors[i].copy_(s.best_weights[i]);
  return true;
}

Event changeLearningRate(TrainState& s, double lr, int64_t step, int64_t epoch) {
  const double before = currentLr(*s.optimizer);
  std::string m;
  if (s.scheduler) {
    const double old_base = s.scheduler->baseLr();
    setLearningRate(*s.optimizer, s.scheduler->rescale(lr));
    m = "optimizer.lr changed from " + formatNumber(old_base) + " to " + formatNumber(lr) +
        " at step " + std::to_string(step) + "; the " + s.scheduler->name() +
        " schedule continues from it (lr now " + formatNumber(currentLr(*s.optimizer)) + ")";
  } else {
    setLearningRate(*s.optimizer, lr);
    m = "optimizer.lr changed from " + formatNumber(before) + " to " + formatNumber(lr) +
        " at step " + std::to_string(step);
  }
  return Event{step, epoch, EventKind::ConfigChanged, m, lr, "optimizer.lr", ""};
}

}  // namespace trainscope
