#pragma once
/// The Sweeps window (issue 47 §3): a sweep folder (core/sweep/sweep_view.h) followed live:
/// the queue and each trial's state (sweepTrialsTable, re-read every second while
/// trials.jsonl changes), parallel coordinates of the varied values and the objective
/// (parallel_coordinates.h; brushing filters the table), the objective against each parameter
/// (sweepScatterPlot, the parameter chosen in sweepScatterParameterCombo, log x where the
/// sweep's range is log), each parameter's importance (sweepImportanceTable: Spearman's rank
/// correlation with the objective, labelled as such), the best trial (sweepBestLabel) and, for
/// a sweep over seeds, each configuration's mean +- standard deviation (sweepSeedsTable).
/// Buttons: open the selected trial in the training view (openTrialButton, or a double
/// click), draw it beside the live run (besideLiveButton), compare the selected trials'
/// curves (compareTrialsButton, 2-10 trials), clear the brushes. It never writes into the
/// sweep folder: the sweep's orchestrator (`trainscope-cli sweep`) is its one writer.
#include <QDialog>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTimer;
class QCustomPlot;
class QCPGraph;

namespace trainscope {

class ParallelCoordinates;
class SweepTrialsModel;
class SweepTrialsFilter;
class RunsOverlayDialog;
struct SweepView;
struct ConfigResult;

class SweepsWindow : public QDialog {
  Q_OBJECT
 public:
  /// Lists the sweep folders under `root` (the dashboard's runs folder), newest first.
  explicit SweepsWindow(const QString& root, QWidget* parent = nullptr);
  ~SweepsWindow() override;

  /// Shows the sweep in `dir`; false with `error` when it holds no sweep.
  bool openSweep(const QString& dir, QString* error = nullptr);
  /// Lists the sweep folders under the root again.
  void rescan();
  /// Reads the shown sweep again when trials.jsonl changed (the window's timer does it every
  /// second); returns whether it did.
  bool refresh();
  /// The sweep folder shown (absolute), empty when none.
  QString sweepDir() const { return dir_; }
  /// The trial numbers the table shows (after brushing), in table order.
  QList<qint64> shownTrials() const;
  /// Selects these trials in the table.
  void selectTrials(const QList<qint64>& trials);
  /// Compares the selected trials' curves (2 to 10 whose folders can be read); null otherwise.
  RunsOverlayDialog* compareSelected();
  /// Picks the scatter's parameter by key; false for a key the sweep does not vary.
  bool setScatterParameter(const QString& key);
  /// The scatter's points (x, objective) and whether its x axis is logarithmic (for tests).
  QList<QPointF> scatterPoints() const;
  bool scatterLogX() const;
  /// The best trial's text and the importance table's rows (key, rho) (for tests).
  QString bestText() const;
  QList<QPair<QString, double>> importance() const;
  ParallelCoordinates* parallelCoordinates() const { return coords_; }
  /// A sweep over seeds: its configurations' rows in sweepSeedsTable (values, "mean +- std",
  /// seeds counted), best mean first (for tests); empty otherwise.
  QStringList seedRows() const;
  /// Shows tab `index` (0 parallel coordinates, 1 objective vs parameter, 2 importance, 3 over
  /// seeds, shown for a sweep with "seeds" > 1).
  void showTab(int index);

 signals:
  /// Show this trial's run folder in the training view.
  void openRequested(const QString& dir);
  /// Draw this trial's run folder as the ghost beside the live run.
  void ghostRequested(const QString& dir);

 private:
  void rebuild();
  void fillScatter();
  void fillImportance();
  void fillSeeds(const std::vector<ConfigResult>& configs);
  void onBrush();
  void onSelection();
  QStringList selectedRunDirs() const;
  void retranslateStatus();
  /// The sweep folders directly under the root, newest first.
  QStringList sweepDirs() const;

  QString root_;
  QString dir_;
  QStringList listed_;  ///< the sweep folders the list was filled from
  qint64 root_mtime_ = -1;  ///< the root folder's mtime when it was last listed
  std::unique_ptr<SweepView> view_;
  qint64 seen_size_ = -1;
  qint64 seen_mtime_ = -1;
  QComboBox* sweeps_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* best_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  ParallelCoordinates* coords_ = nullptr;
  QComboBox* scatter_parameter_ = nullptr;
  QCustomPlot* scatter_ = nullptr;
  QCPGraph* scatter_points_ = nullptr;  ///< the trials' points (the scatter's first graph)
  QTableWidget* importance_ = nullptr;
  QTableWidget* seeds_ = nullptr;
  QTableView* table_ = nullptr;
  SweepTrialsModel* model_ = nullptr;
  SweepTrialsFilter* filter_ = nullptr;
  QPushButton* open_ = nullptr;
  QPushButton* beside_ = nullptr;
  QPushButton* compare_ = nullptr;
  QTimer* timer_ = nullptr;
};

}  // namespace trainscope
