#pragma once
/// Checkpoint actions: Save and Load (ARCHITECTURE §5) and Import weights, with their dialogs.
#include <QGroupBox>
#include <QString>
#include <functional>

#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"

class QLabel;
class QPushButton;

namespace trainscope {

struct CheckpointInfo;
class EvaluationDialog;

/// The Save and Load buttons (objectNames saveCheckpointButton, loadCheckpointButton). Save works
/// while a run runs or is paused (the engine writes at the next step boundary) and after a run
/// that left a last.pt; its dialog proposes step-N.pt in the run's checkpoints/ folder, and a
/// running run is held at step N while the dialog is open (resumed when it closes), so the
/// file holds the step its name says. Load works when no
/// run is running (idle, paused, finished): it reads the file first, shows what it holds and
/// asks before replacing the current run; the run then waits paused at the checkpoint's step.
/// A file that cannot be used is reported and changes nothing.
class CheckpointPanel : public QGroupBox {
  Q_OBJECT
 public:
  /// `controller` runs the runs; new runs go under `runsRoot()` (asked at each load).
  CheckpointPanel(RunCommands* controller, std::function<QString()> runsRoot,
                  QWidget* parent = nullptr);
  void setState(RunState state);
  void retranslate();

  /// Save to `file` without a dialog; false with `error` (English) when nothing was saved.
  bool saveTo(const QString& file, QString* error = nullptr);
  /// Load `file` without dialogs (`ask` false) or after the confirmation dialog (`ask` true),
  /// training until epoch `totalEpochs` (0: defaultTotalEpochs; the dialog lets the user
  /// change it). False with `error` when the file is not usable or a run is running, with
  /// `error` empty when the question was declined. The current run is untouched then.
  bool load(const QString& file, bool ask, QString* error = nullptr, qint64 totalEpochs = 0);
  /// The total a loaded run trains to unless told otherwise: the checkpoint's training.epochs
  /// when that run was not finished, else as many epochs again ("continue 100 more").
  static qint64 defaultTotalEpochs(const CheckpointInfo& info, const TrainConfig& config);
  /// The text of the confirmation question for `info` (translated).
  static QString describe(const CheckpointInfo& info);

  void saveDialog();  ///< Save button
  void loadDialog();  ///< Load button
  /// Evaluate... button: asks for a checkpoint and opens an EvaluationDialog on it.
  void evaluateDialog();
  /// Opens an EvaluationDialog on `file` (deleted when closed).
  EvaluationDialog* evaluate(const QString& file);
  /// File > Import weights...: asks for a file, shows its tensors and sets it as the initial
  /// weights of the next runs (shown in this panel, with a button that clears it).
  void importWeightsDialog();
  /// Checks `file` (inspectWeightsFile) and sets it as the initial weights of the next runs;
  /// false with `error` (English, naming the file) when it cannot be read. Empty `file` clears.
  bool importWeights(const QString& file, QString* error = nullptr);

 signals:
  /// A checkpoint was loaded: its config is the run's (for the settings panel).
  void loaded(const QString& file, const trainscope::TrainConfig& config);

 private:
  RunCommands* controller_;
  std::function<QString()> runs_root_;
  QPushButton* save_ = nullptr;
  QPushButton* load_ = nullptr;
  QPushButton* evaluate_ = nullptr;  ///< evaluateCheckpointButton
  QLabel* weights_ = nullptr;             ///< initWeightsLabel: the imported file, if any
  QPushButton* clear_weights_ = nullptr;  ///< clearInitWeightsButton
  void showWeights();
};

}  // namespace trainscope
