#pragma once
/// The "Model, data and device" settings: capacity and regularisation (optimizer, hidden sizes,
/// dropout, weight decay), the data (samples, validation fraction) and where the run trains
/// (device, CPU threads). Part of the settings panel.
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/system/device_info.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace trainscope {

class ScientificSpinBox;

/// Shows and edits, for the next run (a running run keeps its settings): `optimizer.name`
/// (optimizerComboBox), `model.hidden` (hiddenSizesLineEdit, "64, 64"), `model.dropout`
/// (dropoutSpinBox), `optimizer.weight_decay` (weightDecaySpinBox), `data.n_samples` for
/// synthetic sources or `data.limit` for Fashion-MNIST (samplesSpinBox; 0 = all images),
/// `data.val_fraction` (valFractionSpinBox), `training.device` (deviceComboBox: auto, cpu, and
/// cuda:N only when present) and `training.num_threads` (threadsSpinBox; 0 = auto, measured at
/// the start of the run), `training.grad_accum_steps` (gradAccumSpinBox: micro-batches of the
/// batch size per optimizer step, "batch too big"), and `data.augment` as a summary
/// (augmentSummaryLabel: "training only: RandomCrop, RandomHorizontalFlip", the torchvision
/// code as tooltip) with Preview... (augmentPreviewButton: AugmentationPreviewDialog on the
/// settings shown, for image data). Ranges are the config keys' own. The rows fold
/// under a header button (modelDataToggle), folded by default so that the run controls stay in view
/// on a 1024x768 screen; the choice is remembered (QSettings "modelDataExpanded").
class ModelDataSettings : public QWidget {
  Q_OBJECT
 public:
  ModelDataSettings(const DeviceInfo& devices, QWidget* parent = nullptr);
  ~ModelDataSettings() override;
  /// Shows `config`'s values.
  void showConfig(const TrainConfig& config);
  /// Writes the widgets' values into `config` (the other keys are left as they are).
  void apply(TrainConfig& config) const;
  void setEditable(bool editable);
  /// The first key of `config` these rows cannot show exactly, with the range in `range`;
  /// empty when all fit (see SettingsPanel::keyOutsideWidgets).
  QString keyOutsideWidgets(const TrainConfig& config, QString* range) const;
  void retranslate();
  /// Shows or folds the rows.
  void setExpanded(bool expanded);

 signals:
  /// A value was edited (for the "modified" mark).
  void changed();
  /// A typed value was refused; `message` (translated) says why.
  void valueRejected(const QString& message);

 private:
  void addRow(QWidget* field);
  std::vector<int64_t> hiddenSizes(bool* ok) const;
  void showAugmentation();
  void openPreview();

  std::vector<QLabel*> labels_;
  QToolButton* toggle_ = nullptr;
  QWidget* body_ = nullptr;
  QComboBox* optimizer_ = nullptr;
  QLineEdit* hidden_ = nullptr;
  ScientificSpinBox* dropout_ = nullptr;
  ScientificSpinBox* weight_decay_ = nullptr;
  QSpinBox* samples_ = nullptr;
  ScientificSpinBox* val_fraction_ = nullptr;
  QComboBox* device_ = nullptr;
  QSpinBox* threads_ = nullptr;
  QSpinBox* grad_accum_ = nullptr;
  QLabel* augment_summary_ = nullptr;
  QPushButton* preview_ = nullptr;
  std::unique_ptr<TrainConfig> shown_;  ///< the config shown (the preview's data and transforms)
  bool images_ = false;               ///< the shown source is Fashion-MNIST: samples_ is data.limit
  std::vector<int64_t> last_hidden_;  ///< restored when the text does not parse
  /// model.kind of the config shown: the sizes field edits model.hidden (mlp),
  /// model.cnn.channels (cnn), model.rnn.hidden_size x num_layers (rnn); none for torchscript.
  std::string kind_ = "mlp";
  bool has_sizes_ = true;  ///< the kind has layer sizes (layerSizes); false: fixed by its file
};

}  // namespace trainscope
