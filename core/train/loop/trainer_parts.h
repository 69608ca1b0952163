#pragma once
// The run's parts besides the files (trainer_part.h) and the gradient watch (trainer_watch.h):
// automatic and asked-for checkpoints, the slowdown watch, early stopping's restore of the best
// weights, the model view and the validation detail. Include only from core/train/loop.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/system/clock.h"
#include "core/train/loop/trainer_part.h"
#include "core/train/monitors/throughput_monitor.h"
#include "core/train/monitors/validation_detail.h"

namespace trainscope {

class Checkpointer;
struct CheckpointConfig;

/// Checkpoints: the automatic saves (Checkpointer: epoch ends, pauses, stops; Lightning's
/// ModelCheckpoint) when the run writes a folder, the saves a front end asks for, and the
/// count of failed saves for the summary.
class CheckpointPart : public TrainerPart {
 public:
  /// `folder` empty: no automatic saves (a run without a run directory, or a rank > 0).
  CheckpointPart(PartHost& host, const CheckpointConfig& config, std::filesystem::path folder);
  ~CheckpointPart() override;
  /// Writes `file` now and reports checkpoint_saved, or checkpoint_failed (the run goes on).
  void saveTo(const std::filesystem::path& file, int64_t epoch);
  /// last.pt at the epoch end when due (every save when the run ends after it), best.pt when
  /// improved; epoch-NNNN.pt.
  void onEpochEnd(const EpochEnd& end) override;
  void onPause(int64_t epoch) override;
  /// What was trained, in the epoch it stops in.
  void onInterrupt(int64_t epoch) override;
  /// checkpoints_failed, checkpoint_error, final_state_saved.
  void addToSummary(RunSummary& s) override;

 private:
  /// An automatic save (`save` returns the files written); a failure is checkpoint_failed.
  template <class Save>
  void autoSave(int64_t epoch, Save&& save);
  /// checkpoint_saved events. Automatic saves (epoch ends, stops) go to events.jsonl only: to
  /// observers they would be a line per epoch between the events front ends fold.
  void reportSaved(const std::vector<std::filesystem::path>& files, int64_t epoch, bool automatic);

  PartHost& host_;
  std::unique_ptr<Checkpointer> checkpointer_;  ///< null: no automatic saves
  int64_t failed_ = 0;
  std::string error_;               ///< the last failure's message
  bool last_autosave_failed_ = false;
};

/// The slowdown watch: an epoch far slower than the rate measured when the thread count was
/// chosen is an event (EventKind::Slowdown).
class ThroughputPart : public TrainerPart {
 public:
  ThroughputPart(PartHost& host, double baseline_samples_per_second, int threads)
      : host_(host), monitor_(baseline_samples_per_second, threads) {}
  void onEpochEnd(const EpochEnd& end) override;

 private:
  PartHost& host_;
  ThroughputMonitor monitor_;
};

/// training.early_stopping.restore_best_weights: when early stopping ends the run, the kept
/// best weights go back into the model, after the epoch's checkpoints (Keras' EarlyStopping).
class RestoreBestPart : public TrainerPart {
 public:
  explicit RestoreBestPart(PartHost& host) : host_(host) {}
  void onEpochEnd(const EpochEnd& end) override;

 private:
  PartHost& host_;
};

/// The model view (weights, the first layer's filters, the decision plane) to observers: at
/// most every `interval_s` seconds at epoch ends, and always at a pause, at the last epoch and
/// when early stopping ends the run.
class ModelViewPart : public TrainerPart {
 public:
  ModelViewPart(PartHost& host, double interval_s) : host_(host), interval_s_(interval_s) {}
  void onEpochEnd(const EpochEnd& end) override;
  void onPause(int64_t epoch) override { send(epoch, /*force=*/true); }

 private:
  void send(int64_t epoch, bool force);
  PartHost& host_;
  double interval_s_;
  SteadyClock::time_point last_{};
};

/// The validation detail (the confusion matrix and its cells' samples, the worst samples, the
/// per-class reports and curves, the regression scatter) of each validation pass, computed
/// once and given to observers (`to_observers`) and to `files` (the run folder's
/// evaluation.json and TensorBoard PR curves; may be null).
class ValidationDetailPart : public TrainerPart {
 public:
  ValidationDetailPart(PartHost& host, bool to_observers, RunFilesPart* files)
      : host_(host), to_observers_(to_observers), files_(files) {}
  bool onValidationStart(int64_t epoch) override;
  void onValidationBatch(int64_t first, const at::Tensor& outputs,
                         const at::Tensor& targets) override;
  void onValidationEnd() override;
  /// A pause right after a pass: the dashboard looks now, so that pass's detail gets its
  /// embedding and Grad-CAM maps if the time rule skipped them, and is sent again.
  void onPause(int64_t epoch) override;

 private:
  /// The embedding and the worst samples' Grad-CAM maps into `detail` (timed for the rule).
  void addPictures(ValidationDetail& detail);
  std::optional<ValidationDetail> last_;  ///< the last detail sent without its pictures
  PartHost& host_;
  bool to_observers_;
  RunFilesPart* files_;
  std::optional<ValidationDetailCollector> collector_;
  /// Signed Grad-CAM maps of every class for the worst samples (image data, a CNN).
  void addGradCams(ValidationDetail& detail);
  std::vector<int64_t> embedding_positions_;  ///< chosen at the first embedding
  std::optional<SteadyClock::time_point> embedded_;
  double embedding_cost_ = 0;  ///< seconds the last pictures (embedding, Grad-CAM) took
};

}  // namespace trainscope
