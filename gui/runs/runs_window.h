#pragma once
/// The Runs window: the experiment log of core/run/run_table.h for the runs folder
/// and any folder added, one row per run, in the dashboard.
#include <QDialog>
#include <QStringList>
#include <vector>

#include "core/run/run_table.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QToolButton;

namespace trainscope {

class RunsOverlayDialog;

/// Lists every run folder under the folders shown (runsTable; sortable by any column, numbers
/// numerically), filtered by runsFilterLineEdit ("text" in any column, or "key=text" in a
/// column or config key, as `trainscope-cli runs --filter`), columns chosen in
/// runsColumnsButton's menu, which also adds any config key as a column (the keys that differ
/// among the runs offered first; or a right click on the differences table). Selecting runs fills runsDifferencesTable with the config keys
/// that differ among them (differences only); overlayRunsButton draws 2-10 of them on one plot
/// (runs_overlay.h). The selected run's notes and tags
/// (runNotesEdit, runTagsLineEdit, saveRunNotesButton) are kept in its notes.json, never in
/// its records. Buttons: add a folder (addRunsFolderButton), reload (refreshRunsButton), show
/// the run in the training view (openSelectedRunButton, or a double click: no folder is
/// created), continue from its last.pt (continueRunButton), load its config to run it again
/// (rerunButton), replay it with its recorded live changes (replayRunButton), draw it as the
/// ghost beside the live run (ghostRunButton), rename (renameRunButton), open in the file manager (revealRunButton) and
/// move to <runs folder>/trash after a confirmation (trashRunButton). A running run cannot be
/// renamed or moved. Nothing here writes into a run's records.
class RunsWindow : public QDialog {
  Q_OBJECT
 public:
  /// Shows the runs under `root` (the dashboard's runs folder).
  explicit RunsWindow(const QString& root, QWidget* parent = nullptr);

  /// Adds a folder of runs (or one run folder) and reloads.
  void addFolder(const QString& dir);
  /// Reads every folder again (after runs were made, renamed or removed).
  void reload();
  /// The runs shown (after the filter), in table order, as run folders (absolute).
  QStringList shownRuns() const;
  /// Selects the rows of these run folders (for tests and automation).
  void selectRuns(const QStringList& dirs);
  /// Opens the curves of the selected runs on one plot (overlayRunsButton: 2 to 10 runs that
  /// can be read); null when fewer or more are selected.
  RunsOverlayDialog* compareSelected();
  /// The differences table's keys (for tests).
  QStringList differenceKeys() const;
  /// Shows config key `key` (dotted, e.g. "optimizer.weight_decay") as a column after the
  /// built-in ones, as `trainscope-cli runs --columns` does (core/run/run_table.h
  /// addConfigColumns); false, changing nothing, for a key that is not a config key.
  bool addConfigColumn(const QString& key);
  /// Removes a config key column added by addConfigColumn.
  void removeConfigColumn(const QString& key);
  /// The config keys shown as columns, in order.
  QStringList configColumns() const { return config_columns_; }

 signals:
  /// Show this run folder in the training view.
  void openRequested(const QString& dir);
  /// Continue this checkpoint (a run's checkpoints/last.pt) in a new run.
  void continueRequested(const QString& checkpoint);
  /// Load this config file (a run's config.json) into the settings to run it again.
  void rerunRequested(const QString& config);
  /// Replay this run folder in a new run (trainscope-cli train --replay).
  void replayRequested(const QString& dir);
  /// Draw this run folder as the ghost of the training view's loss plot.
  void ghostRequested(const QString& dir);

 private:
  void fillTable();
  void applyFilter();
  void onSelectionChanged();
  void chooseColumns();
  void askConfigColumn();
  std::vector<std::string> columnKeys() const;
  void saveNotes();
  void renameSelected();
  void trashSelected();
  void retranslate();
  const RunRow* currentRow() const;
  std::vector<const RunRow*> selectedRows() const;

  QString root_;
  QStringList folders_;
  std::vector<RunRow> rows_;
  QStringList hidden_columns_;
  QStringList config_columns_;  ///< config keys shown as columns, after the built-in ones
  QLabel* folders_label_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QToolButton* columns_ = nullptr;
  QTableWidget* table_ = nullptr;
  QTableWidget* differences_ = nullptr;
  QLabel* differences_title_ = nullptr;
  QPlainTextEdit* notes_ = nullptr;
  QLineEdit* tags_ = nullptr;
  QPushButton *overlay_ = nullptr, *add_folder_ = nullptr, *refresh_ = nullptr, *open_ = nullptr,
              *continue_ = nullptr, *rerun_ = nullptr, *rename_ = nullptr, *reveal_ = nullptr,
              *trash_ = nullptr, *save_notes_ = nullptr, *replay_ = nullptr, *ghost_ = nullptr;
};

/// The column's header in the interface language.
QString runColumnTitle(const std::string& key);
/// A run status ("completed", "crashed", ...) in the interface language.
QString runStatusTitle(const std::string& status);
/// The anomalies column ("non-finite x3, overfitting @179", core/run/run_table.cpp) in the
/// interface language; a part it does not know stays as written.
QString runAnomaliesTitle(const std::string& anomalies);

}  // namespace trainscope
