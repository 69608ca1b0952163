#include "gui/panels/model_data_settings.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/data/augment/pipeline_text.h"
#include "gui/tr.h"
#include "gui/views/augmentation_preview.h"
#include "gui/widgets/config_key_range.h"
#include "gui/widgets/scientific_spin_box.h"

namespace trainscope {
namespace {

/// The layer sizes field's words for each model kind (one row per name of modelKinds(); a kind
/// without a row gets the MLP's): its label and its tool tip. QT_TRANSLATE_NOOP files them
/// under the GUI's one context (gui/tr.h); Tr::tr translates them when shown.
struct KindWords {
  const char* name;
  const char* label;
  const char* tip;
};

constexpr KindWords kKindWords[] = {
    {"mlp", QT_TRANSLATE_NOOP("TrainScope", "Hidden layers:"),
     QT_TRANSLATE_NOOP("TrainScope",
                       "Widths of the hidden layers, e.g. 64, 64. Bigger layers fit more, and "
                       "overfit more.")},
    {"cnn", QT_TRANSLATE_NOOP("TrainScope", "Conv channels:"),
     QT_TRANSLATE_NOOP("TrainScope",
                       "Output channels of each convolution block (model.cnn.channels), e.g. 32, "
                       "64: one block per number. More channels see more patterns, and cost more "
                       "time.")},
    {"rnn", QT_TRANSLATE_NOOP("TrainScope", "Recurrent layers:"),
     QT_TRANSLATE_NOOP("TrainScope",
                       "Hidden size of each stacked recurrent layer (model.rnn.hidden_size and "
                       "num_layers), e.g. 64, 64: two layers of 64. The layers share one size, "
                       "the first number.")},
    {"torchscript", QT_TRANSLATE_NOOP("TrainScope", "Hidden layers:"),
     QT_TRANSLATE_NOOP("TrainScope",
                       "The TorchScript file fixes the layers: change them in Python and script "
                       "the model again.")},
};

const KindWords& wordsOf(const std::string& kind) {
  for (const KindWords& w : kKindWords)
    if (kind == w.name) return w;
  return kKindWords[0];
}

/// The kind's section (ModelKind::key_section), "model" for an unknown kind.
std::string sectionOf(const std::string& kind) {
  const ModelKind* row = findModelKind(kind);
  return row ? row->key_section : "model";
}

}  // namespace

ModelDataSettings::~ModelDataSettings() = default;

ModelDataSettings::ModelDataSettings(const DeviceInfo& devices, QWidget* parent)
    : QWidget(parent), shown_(std::make_unique<TrainConfig>()) {
  setObjectName(QStringLiteral("modelDataSettings"));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  toggle_ = new QToolButton(this);
  toggle_->setObjectName(QStringLiteral("modelDataToggle"));
  toggle_->setCheckable(true);
  toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toggle_->setAutoRaise(true);
  outer->addWidget(toggle_);
  body_ = new QWidget(this);
  outer->addWidget(body_);
  auto* form = new QFormLayout(body_);
  form->setContentsMargins(12, 0, 0, 0);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

  optimizer_ = new QComboBox(this);
  optimizer_->setObjectName(QStringLiteral("optimizerComboBox"));
  for (const OptimizerKind& k : optimizerKinds())  // PyTorch's class names, config values as data
    optimizer_->addItem(QString::fromStdString(k.torch_class), QString::fromStdString(k.name));
  addRow(optimizer_);

  hidden_ = new QLineEdit(this);
  hidden_->setObjectName(QStringLiteral("hiddenSizesLineEdit"));
  hidden_->setValidator(new QRegularExpressionValidator(
      QRegularExpression(QStringLiteral(R"(^\s*(\d{1,5}(\s*,\s*\d{1,5})*)?\s*,?\s*$)")), hidden_));
  addRow(hidden_);

  dropout_ = new ScientificSpinBox(this);
  dropout_->setObjectName(QStringLiteral("dropoutSpinBox"));
  setKeyRange(dropout_, "model.dropout", 0.01, 1);  // 0 <= p < 1
  dropout_->setSingleStep(0.05);
  addRow(dropout_);

  weight_decay_ = new ScientificSpinBox(this);
  weight_decay_->setObjectName(QStringLiteral("weightDecaySpinBox"));
  setKeyRange(weight_decay_, "optimizer.weight_decay", 0, 10);
  addRow(weight_decay_);

  samples_ = new QSpinBox(this);
  samples_->setObjectName(QStringLiteral("samplesSpinBox"));
  setKeyRange(samples_, "data.n_samples", /*special_min=*/0);  // 0: all (images)
  addRow(samples_);

  val_fraction_ = new ScientificSpinBox(this);
  val_fraction_->setObjectName(QStringLiteral("valFractionSpinBox"));
  setKeyRange(val_fraction_, "data.val_fraction", 0.001, 1, 0.01);  // 0 < x < 1
  val_fraction_->setSingleStep(0.05);
  addRow(val_fraction_);

  device_ = new QComboBox(this);
  device_->setObjectName(QStringLiteral("deviceComboBox"));
  device_->addItem(QString(), QStringLiteral("auto"));
  device_->addItem(QStringLiteral("cpu"), QStringLiteral("cpu"));
  for (int i = 0; i < devices.cuda_device_count; ++i)
    device_->addItem(QStringLiteral("cuda:%1").arg(i), QStringLiteral("cuda:%1").arg(i));
  addRow(device_);

  threads_ = new QSpinBox(this);
  threads_->setObjectName(QStringLiteral("threadsSpinBox"));
  setKeyRange(threads_, "training.num_threads", /*special_min=*/0);  // 0: auto
  addRow(threads_);

  grad_accum_ = new QSpinBox(this);
  grad_accum_->setObjectName(QStringLiteral("gradAccumSpinBox"));
  setKeyRange(grad_accum_, "training.grad_accum_steps");
  addRow(grad_accum_);

  auto* augment_row = new QWidget(this);
  auto* augment_layout = new QHBoxLayout(augment_row);
  augment_layout->setContentsMargins(0, 0, 0, 0);
  augment_summary_ = new QLabel(augment_row);
  augment_summary_->setObjectName(QStringLiteral("augmentSummaryLabel"));
  augment_summary_->setWordWrap(false);
  augment_layout->addWidget(augment_summary_, 1);
  preview_ = new QPushButton(augment_row);
  preview_->setObjectName(QStringLiteral("augmentPreviewButton"));
  augment_layout->addWidget(preview_);
  addRow(augment_row);
  connect(preview_, &QPushButton::clicked, this, &ModelDataSettings::openPreview);

  connect(optimizer_, &QComboBox::activated, this, &ModelDataSettings::changed);
  connect(device_, &QComboBox::activated, this, &ModelDataSettings::changed);
  connect(hidden_, &QLineEdit::editingFinished, this, [this] {
    bool ok = false;
    const std::vector<int64_t> sizes = hiddenSizes(&ok);
    if (!ok) {
      const QString typed = hidden_->text();
      QStringList previous;
      for (int64_t s : last_hidden_) previous << QString::number(s);
      hidden_->setText(previous.join(QStringLiteral(", ")));
      emit valueRejected(
          Tr::tr("\"%1\" was not accepted: hidden sizes are whole numbers from 1 to 65536 "
                 "separated by commas, e.g. 64, 64. The previous value %2 is kept.")
              .arg(typed, hidden_->text()));
      return;
    }
    last_hidden_ = sizes;
    emit changed();
  });
  for (ScientificSpinBox* box : {dropout_, val_fraction_, weight_decay_}) {
    connect(box, &ScientificSpinBox::valueRejected, this, [this, box](const QString& text) {
      emit valueRejected(
          Tr::tr("\"%1\" was not accepted: the value must be between %2 and %3. The previous "
                 "value %4 is kept.")
              .arg(text, ScientificSpinBox::formatValue(box->minimum()),
                   ScientificSpinBox::formatValue(box->maximum()),
                   ScientificSpinBox::formatValue(box->value())));
    });
  }
  for (QDoubleSpinBox* box :
       std::initializer_list<QDoubleSpinBox*>{dropout_, val_fraction_, weight_decay_})
    connect(box, &QDoubleSpinBox::valueChanged, this, &ModelDataSettings::changed);
  for (QSpinBox* box : {samples_, threads_, grad_accum_})
    connect(box, &QSpinBox::valueChanged, this, &ModelDataSettings::changed);
  connect(toggle_, &QToolButton::toggled, this, [this](bool on) {
    setExpanded(on);
    QSettings().setValue(QStringLiteral("modelDataExpanded"), on);
  });
  setExpanded(QSettings().value(QStringLiteral("modelDataExpanded"), false).toBool());
  retranslate();
}

void ModelDataSettings::setExpanded(bool expanded) {
  const QSignalBlocker block(toggle_);
  toggle_->setChecked(expanded);
  toggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
  body_->setVisible(expanded);
}

void ModelDataSettings::addRow(QWidget* field) {
  auto* label = new QLabel(body_);
  label->setBuddy(field);
  static_cast<QFormLayout*>(body_->layout())->addRow(label, field);
  labels_.push_back(label);
}

QString ModelDataSettings::keyOutsideWidgets(const TrainConfig& c, QString* range) const {
  auto outside = [&](double v, double lo, double hi, const char* key) {
    if (v >= lo && v <= hi) return QString();
    if (range)
      *range = QStringLiteral("%1 – %2").arg(ScientificSpinBox::formatValue(lo),
                                             ScientificSpinBox::formatValue(hi));
    return QString::fromLatin1(key);
  };
  const double limit = static_cast<double>(c.data.limit.value_or(0));
  for (const QString& key :
       {outside(c.model.dropout, dropout_->minimum(), dropout_->maximum(), "model.dropout"),
        outside(c.optimizer.weight_decay, weight_decay_->minimum(), weight_decay_->maximum(),
                "optimizer.weight_decay"),
        outside(c.data.val_fraction, val_fraction_->minimum(), val_fraction_->maximum(),
                "data.val_fraction"),
        outside(static_cast<double>(c.data.n_samples), 2, samples_->maximum(), "data.n_samples"),
        outside(limit, 0, samples_->maximum(), "data.limit"),
        outside(static_cast<double>(c.training.num_threads.value_or(0)), 0, threads_->maximum(),
                "training.num_threads"),
        outside(static_cast<double>(c.training.grad_accum_steps), 1, grad_accum_->maximum(),
                "training.grad_accum_steps")}) {
    if (!key.isEmpty()) return key;
  }
  return QString();
}

std::vector<int64_t> ModelDataSettings::hiddenSizes(bool* ok) const {
  std::vector<int64_t> sizes;
  *ok = true;
  for (const QString& part : hidden_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    bool number = false;
    const int v = part.trimmed().toInt(&number);
    if (!number || v < 1 || v > 65536) {
      *ok = false;
      return {};
    }
    sizes.push_back(v);
  }
  return sizes;
}

void ModelDataSettings::showConfig(const TrainConfig& c) {
  const QSignalBlocker blockers[] = {QSignalBlocker(optimizer_),    QSignalBlocker(dropout_),
                                     QSignalBlocker(weight_decay_), QSignalBlocker(samples_),
                                     QSignalBlocker(val_fraction_), QSignalBlocker(device_),
                                     QSignalBlocker(threads_),      QSignalBlocker(grad_accum_)};
  optimizer_->setCurrentIndex(
      std::max(0, optimizer_->findData(QString::fromStdString(c.optimizer.name))));
  kind_ = c.model.kind;
  const auto sizes_of_kind = layerSizes(c.model, sectionOf(kind_));
  has_sizes_ = sizes_of_kind.has_value();  // none: the file fixes the architecture
  last_hidden_ = sizes_of_kind.value_or(std::vector<int64_t>{});
  hidden_->setEnabled(has_sizes_ && optimizer_->isEnabled());
  QStringList sizes;
  for (int64_t s : last_hidden_) sizes << QString::number(s);
  hidden_->setText(sizes.join(QStringLiteral(", ")));
  dropout_->setValue(c.model.dropout);
  weight_decay_->setValue(c.optimizer.weight_decay);
  const DataSourceKind* source = findDataSource(c.data.source);
  images_ = source && source->read_from_files;  // files: data.limit; generated: n_samples
  samples_->setMinimum(images_ ? 0 : 2);
  samples_->setSpecialValueText(images_ ? Tr::tr("all") : QString());
  samples_->setValue(static_cast<int>(images_ ? c.data.limit.value_or(0) : c.data.n_samples));
  val_fraction_->setValue(c.data.val_fraction);
  int device = device_->findData(QString::fromStdString(c.training.device));
  if (device < 0) {  // "cuda" or a device not present here: shown as it is, still selectable
    device_->addItem(QString::fromStdString(c.training.device),
                     QString::fromStdString(c.training.device));
    device = device_->count() - 1;
  }
  device_->setCurrentIndex(device);
  threads_->setValue(
      static_cast<int>(std::min<int64_t>(c.training.num_threads.value_or(0), threads_->maximum())));
  grad_accum_->setValue(static_cast<int>(c.training.grad_accum_steps));
  *shown_ = c;
  retranslate();
}

void ModelDataSettings::showAugmentation() {
  const AugmentConfig& a = shown_->data.augment;
  const DataSourceKind* source = findDataSource(shown_->data.source);
  const bool tables = source && !source->image_data &&
                      (!source->read_from_files || source->key_section == "data.csv");
  preview_->setEnabled(!tables);
  preview_->setText(Tr::tr("Preview…"));
  preview_->setToolTip(tables ? Tr::tr("Augmentation transforms images; this data is a table.")
                              : Tr::tr("One training image and 16 variants of it, as the "
                                       "training batches draw them."));
  const std::vector<std::string> code = augment::torchvisionTransforms(a, 0, 0);
  if (code.empty()) {
    augment_summary_->setText(Tr::tr("none"));
    augment_summary_->setToolTip(Tr::tr("Set data.augment.* in All settings: horizontal flips, "
                                        "random crops, colour jitter, rotation."));
    return;
  }
  QStringList names, lines;
  for (const std::string& t : code) {
    QString text = QString::fromStdString(t);
    names << text.mid(2, text.indexOf(QLatin1Char('(')) - 2);  // "T.RandomCrop(" -> RandomCrop
    lines << text.remove(QStringLiteral("size=(0, 0), "));  // the images' size: unknown here
  }
  // One transform a line: a wrapped label in the form is cut at some widths
  augment_summary_->setText(Tr::tr("training only: %1").arg(names.join(QStringLiteral(",\n"))));
  augment_summary_->setToolTip(
      Tr::tr("torchvision transforms of the training images; validation and test images are "
             "not augmented:") + QLatin1Char('\n') + lines.join(QLatin1Char('\n')));
}

void ModelDataSettings::openPreview() {
  TrainConfig c = *shown_;
  apply(c);  // the data size and split as edited
  auto* dialog = new AugmentationPreviewDialog(c, window());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
}

void ModelDataSettings::apply(TrainConfig& c) const {
  c.optimizer.name = optimizer_->currentData().toString().toStdString();
  bool ok = false;
  if (const std::vector<int64_t> sizes = hiddenSizes(&ok); ok)
    setLayerSizes(c.model, sectionOf(kind_), sizes);
  c.model.dropout = dropout_->value();
  c.optimizer.weight_decay = weight_decay_->value();
  if (images_) {
    if (samples_->value() > 0) {
      c.data.limit = samples_->value();
    } else {
      c.data.limit.reset();
    }
  } else {
    c.data.n_samples = samples_->value();
  }
  c.data.val_fraction = val_fraction_->value();
  c.training.device = device_->currentData().toString().toStdString();
  if (threads_->value() > 0) {
    c.training.num_threads = threads_->value();
  } else {
    c.training.num_threads.reset();
  }
  c.training.grad_accum_steps = grad_accum_->value();
}

void ModelDataSettings::setEditable(bool editable) {
  for (QWidget* w :
       std::initializer_list<QWidget*>{optimizer_, hidden_, dropout_, weight_decay_, samples_,
                                       val_fraction_, device_, threads_, grad_accum_})
    w->setEnabled(editable);
  hidden_->setEnabled(editable && has_sizes_);
}

void ModelDataSettings::retranslate() {
  toggle_->setText(Tr::tr("Model, data and device"));
  toggle_->setToolTip(
      Tr::tr("Optimizer, layer sizes, dropout, weight decay, data size, "
             "validation share, device and threads."));
  const QString texts[] = {Tr::tr("Optimizer:"),
                           Tr::tr(wordsOf(kind_).label),
                           Tr::tr("Dropout:"),
                           Tr::tr("Weight decay:"),
                           images_ ? Tr::tr("Samples used:") : Tr::tr("Samples:"),
                           Tr::tr("Validation:"),
                           Tr::tr("Device:"),
                           Tr::tr("CPU threads:"),
                           Tr::tr("Accumulation:"),
                           Tr::tr("Augmentation:")};
  for (std::size_t i = 0; i < labels_.size(); ++i) labels_[i]->setText(texts[i]);
  const QString next_run = Tr::tr("Applies when the next run starts.");
  optimizer_->setToolTip(Tr::tr("torch.optim.SGD, Adam or AdamW.") + QLatin1Char('\n') + next_run);
  const QString sizes_tip = Tr::tr(wordsOf(kind_).tip);
  hidden_->setToolTip(sizes_tip + QLatin1Char('\n') + next_run);
  hidden_->setPlaceholderText(has_sizes_ ? QString() : Tr::tr("set by the TorchScript file"));
  dropout_->setToolTip(Tr::tr("Probability of zeroing each hidden unit during training "
                              "(torch.nn.Dropout). Shrinks the gap between training and "
                              "validation loss.") +
                       QLatin1Char('\n') + next_run);
  weight_decay_->setToolTip(Tr::tr("L2 penalty on the weights (AdamW: decoupled). Another way "
                                   "to fight overfitting.") +
                            QLatin1Char('\n') + next_run);
  samples_->setToolTip((images_ ? Tr::tr("How many of the data's samples the run uses before the "
                                         "validation split (all: every one, e.g. Fashion-MNIST's "
                                         "60,000).")
                                : Tr::tr("How many samples the synthetic dataset has before "
                                         "the validation split. More data, less overfitting.")) +
                       QLatin1Char('\n') + next_run);
  val_fraction_->setToolTip(Tr::tr("Fraction of the samples held out to measure validation "
                                   "loss.") +
                            QLatin1Char('\n') + next_run);
  device_->setItemText(0, Tr::tr("auto"));
  device_->setToolTip(Tr::tr("Where the run trains: auto takes the first CUDA GPU when there is "
                             "one, else the CPU.") +
                      QLatin1Char('\n') + next_run);
  threads_->setSpecialValueText(Tr::tr("auto"));
  threads_->setToolTip(Tr::tr("Intra-op CPU threads. auto measures 1, 2, 4, ... on a few real "
                              "steps at the start and keeps the fastest.") +
                       QLatin1Char('\n') + next_run);
  grad_accum_->setSuffix(Tr::tr(" micro-batches"));
  grad_accum_->setToolTip(Tr::tr("Gradient accumulation: the batch size's worth of samples is "
                                 "run this many times before one optimizer step, so the step "
                                 "sees batch size × this many samples with the memory of one "
                                 "batch. 4 × 32 trains like a batch of 128.") +
                          QLatin1Char('\n') + next_run);
  if (images_) samples_->setSpecialValueText(Tr::tr("all"));
  showAugmentation();
}

}  // namespace trainscope
