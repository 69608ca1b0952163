#pragma once
/// The Data section: where the samples come from (a built-in set, a CSV table, an
/// image folder, NumPy arrays, IDX files), checked with the import report before training.
#include <QDialog>
#include <optional>

#include "core/config/train_config.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace trainscope {

struct DataReport;

/// Edits the data keys of a config: `data.source` (dataSourceComboBox), the file or folder
/// (dataPathLineEdit, dataBrowseButton: data.csv.path, data.image_folder.path, data.npy.path,
/// data.idx.path, data.path for fashion-mnist), the labels file of .npy and IDX pairs
/// (dataLabelsPathLineEdit, dataLabelsBrowseButton), the CSV target column
/// (targetColumnComboBox, filled from the table's header), the task (dataTaskComboBox), image
/// channels and size (imageChannelsComboBox, imageHeightSpinBox, imageWidthSpinBox; 0 = the
/// first image's; imageResizeComboBox: data.image_folder.resize) and data.stratify
/// (stratifyCheckBox). "Check data" (checkDataButton) loads
/// the data on a worker thread exactly as a run would and shows the import report
/// (dataReportBrowser): samples per split, shape, task, classes with a bar each, warnings, notes,
/// the first rows or the first images of each class, memory. OK applies only data that passed
/// the check (it checks first when needed); a failed check shows the error (file, row, column)
/// and keeps the previous settings.
class DataDialog : public QDialog {
  Q_OBJECT
 public:
  /// Starts from `current` (the settings' data section).
  explicit DataDialog(const DataConfig& current, QWidget* parent = nullptr);

  /// The source's name as the dashboard shows it ("CSV table"), translated.
  static QString sourceTitle(const std::string& source);

  /// `current` with the dialog's edits.
  DataConfig dataConfig() const;
  /// Starts the check of dataConfig() (the report replaces the previous one when it is done).
  void checkData();
  /// The report's or the error's text as shown (for tests).
  QString reportText() const;
  /// Whether the last finished check succeeded for the inputs now shown.
  bool checkedOk() const;

  void accept() override;

 signals:
  /// A check finished: `ok` false when the data cannot be used (the report says why).
  void checkFinished(bool ok);

 private:
  void onSourceChanged();
  void browse(bool labels);
  void loadColumns();
  void showReport(int generation, const DataConfig& checked, const DataReport* report,
                  const QString& error);
  void showColumns(int generation, const QStringList& columns, const QString& error);
  void inputsChanged();
  void retranslate();

  DataConfig base_;
  QComboBox* source_;
  QLabel* source_help_;
  QLabel* path_label_;
  QLineEdit* path_;
  QPushButton* browse_;
  QLabel* labels_label_;
  QLineEdit* labels_path_;
  QPushButton* labels_browse_;
  QLabel* target_label_;
  QComboBox* target_;
  QLabel* task_label_;
  QComboBox* task_;
  QLabel* channels_label_;
  QComboBox* channels_;
  QLabel* size_label_;
  QSpinBox* height_;
  QSpinBox* width_;
  QComboBox* resize_;  ///< data.image_folder.resize
  QCheckBox* stratify_;
  QLabel* val_fraction_label_;
  QDoubleSpinBox* val_fraction_;  ///< `valFractionSpinBox`: data.val_fraction
  QPushButton* check_;
  QTextBrowser* report_;
  QDialogButtonBox* buttons_;
  int generation_ = 0;          ///< drops results of checks started before the last edit
  int columns_generation_ = 0;  ///< the same for the header read
  int checking_generation_ = -1;  ///< the generation of the newest check started
  std::optional<std::string> checked_;  ///< JSON of the data config that passed the check
  bool accept_after_check_ = false;
};

}  // namespace trainscope
