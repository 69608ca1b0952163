#pragma once
/// The shown run as readers see it (PlotJuggler's PlotDataMapRef: loaders fill it, nobody draws
/// from the producer): its named series, the previous run (the ghost), its newest records,
/// config, summary and totals, and the signals plots and panels connect to. The run session
/// (gui/engine/run_session.h) writes it on the GUI thread from a live run's record
/// queue, a run read back (readRun) or a followed run (RunFollower), always through run_feed;
/// readers only read it and connect to it.
#include <QObject>
#include <QString>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_diff.h"
#include "core/config/train_config.h"
#include "gui/engine/record_types.h"
#include "gui/model/run_history.h"

namespace trainscope {

class RunSession;
struct RunRecord;

class RunStore : public QObject {
  Q_OBJECT
 public:
  explicit RunStore(QObject* parent = nullptr);

  /// Steps received in the shown run.
  qint64 stepCount() const { return step_count_; }
  /// Steps whose optimizer update was skipped (non-finite loss or gradient norm).
  qint64 skippedSteps() const { return skipped_steps_; }
  /// The loss doctor's newest reading and the newest model view of the shown run.
  const std::optional<Diagnosis>& lastDiagnosis() const { return last_diagnosis_; }
  const std::optional<ModelViewRecord>& lastModelView() const { return last_model_view_; }
  /// The newest epoch's validation detail (confusion matrix, worst samples), if any.
  const std::optional<ValidationDetail>& lastValidationDetail() const {
    return last_validation_detail_;
  }
  /// The newest per-layer statistics of the shown run.
  const std::optional<LayerStatsRecord>& lastLayerStats() const { return last_layer_stats_; }
  /// The newest step record of the shown run.
  const std::optional<StepRecord>& lastStep() const { return last_step_; }
  /// The shown run's directory (empty before the first run).
  const QString& runDirectory() const { return run_dir_; }
  /// Planned epochs and steps of the shown run (steps known once it started).
  qint64 totalEpochs() const { return total_epochs_; }
  qint64 totalSteps() const { return total_steps_; }
  /// True while the shown run is one read back from its folder, not trained here.
  bool isReadBack() const { return read_back_; }
  /// True when the shown run was read back without summary.json and no process writes it
  /// (killed or crashed; the runs table's "crashed"): its summary() is what its files recorded
  /// (interruptedSummary, core/run/run_reader.h), without a wall-clock time.
  bool endedUnfinished() const { return ended_unfinished_; }
  /// The shown run's config as it was started.
  const TrainConfig& config() const { return config_; }
  /// That config with the live changes its events reported since (feedLiveChange: learning
  /// rate, AMP, clipping): the values in force now, what a live edit is compared with.
  const TrainConfig& liveConfig() const { return live_; }
  /// The shown run's summary (default until it ended).
  const RunSummary& summary() const { return summary_; }
  /// The named series (see series::k...) of each run the store holds, by run key (runs::kShown,
  /// runs::kPrevious): plots draw a run by its key (LivePlot::setRun). An empty history for a
  /// key the store does not hold. The histories live as long as the store.
  const RunHistory& run(const std::string& key) const;
  /// Holds the run `run` read back from its folder under `key` (not runs::kShown, which the
  /// session writes): the series held under that key are replaced by the run's (feedRun).
  void holdRun(const std::string& key, const RunRecord& run);
  /// The keys of the runs held, in key order.
  std::vector<std::string> runKeys() const;
  /// The points appended to all runs held so far (RunHistory::appendCount summed): a redraw
  /// with nothing new can be skipped.
  quint64 appendCount() const;
  /// The shown run (runs::kShown): the live run, a resumed one or one read back.
  const RunHistory& history() const { return history_; }
  /// The run shown before (runs::kPrevious), kept whole when a new run starts on the same data
  /// and has epochs, or a run chosen as the ghost; empty otherwise. Plots draw its epoch losses
  /// as the ghost.
  const RunHistory& previousRun() const { return previous_; }
  /// The settings in which the shown run differs from the previous one (config key, old and
  /// new value as JSON); empty without a previous run.
  const std::vector<ConfigChange>& ghostChanges() const { return ghost_changes_; }
  bool hasGhost() const { return !previous_.empty(); }
  /// The config name of the run the ghost comes from (empty without a ghost).
  const QString& ghostName() const { return ghost_name_; }
  /// True when the ghost was chosen (RunSession::setGhostRun), not the previous run.
  bool ghostChosen() const { return ghost_chosen_; }

 signals:
  void runStarted(const trainscope::RunInfo& info);
  void stepRecorded(const trainscope::StepRecord& step);
  void epochFinished(const trainscope::EpochRecord& epoch);
  void eventOccurred(const trainscope::Event& event);
  /// Per-layer statistics (every training.layer_stats_every steps; also in the history as
  /// series::layerGradNorm / layerUpdateRatio).
  void layerStatsRecorded(const trainscope::LayerStatsRecord& stats);
  /// The loss doctor's reading changed.
  void diagnosisChanged(const trainscope::Diagnosis& diagnosis);
  /// A new picture of what the model does (epoch ends, pauses).
  void modelViewUpdated(const trainscope::ModelViewRecord& view);
  /// An epoch's validation in detail, after epochFinished.
  void validationDetailUpdated(const trainscope::ValidationDetail& detail);
  /// Percentiles of the layers' weights, gradients and activations (every
  /// training.distributions_every steps).
  void distributionsRecorded(const trainscope::DistributionRecord& record);
  /// The shown run ended after it had started (any stop reason).
  void runFinished(const trainscope::RunSummary& summary);
  /// The run could not start or failed unexpectedly.
  void runFailed(const trainscope::RunFailure& failure);

 private:
  friend class RunSession;  // the run session writes the shown run
  /// A new shown run's config (also its live values).
  void setConfig(const TrainConfig& config);
  /// One event of the shown run: the live values follow it, then eventOccurred.
  void addEvent(const Event& event);
  qint64 step_count_ = 0;
  qint64 skipped_steps_ = 0;
  qint64 total_epochs_ = 0;
  qint64 total_steps_ = 0;
  std::optional<StepRecord> last_step_;
  std::optional<Diagnosis> last_diagnosis_;
  std::optional<ModelViewRecord> last_model_view_;
  std::optional<ValidationDetail> last_validation_detail_;
  std::optional<LayerStatsRecord> last_layer_stats_;
  RunSummary summary_;
  TrainConfig config_;
  TrainConfig live_;
  QString run_dir_;
  std::map<std::string, RunHistory> runs_;  ///< by run key; nodes never erased
  RunHistory& history_;                     ///< runs_[runs::kShown]
  RunHistory& previous_;                    ///< runs_[runs::kPrevious]
  bool read_back_ = false;  ///< the shown run was read back (openRun)
  bool ended_unfinished_ = false;  ///< read back killed or crashed (endedUnfinished)
  std::vector<ConfigChange> ghost_changes_;
  QString ghost_name_;
  bool ghost_chosen_ = false;  ///< previous_ holds a run chosen with setGhostRun
  TrainConfig ghost_config_;   ///< that run's config (its changes are recomputed per run)
};

}  // namespace trainscope
