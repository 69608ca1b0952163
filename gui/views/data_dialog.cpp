#include "gui/views/data_dialog.h"

#include "gui/plots/palette.h"
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTextBrowser>
#include <QThreadPool>
#include <QVBoxLayout>
#include <memory>
#include <utility>

#include "core/config/config_json.h"
#include "core/config/kinds.h"
#include "core/data/csv_table.h"
#include "core/data/data_report.h"
#include "core/errors.h"
#include "gui/event_text.h"
#include "gui/tr.h"
#include "gui/widgets/config_key_range.h"
#include "gui/widgets/pixel_image.h"

namespace trainscope {
namespace {

/// The members `source`'s row edits in `d` (sourceFields of its key section); no path for a
/// source that reads no files.
SourceFields fieldsOf(DataConfig& d, const QString& source) {
  const DataSourceKind* kind = findDataSource(source.toStdString());
  if (!kind) return {};
  SourceFields f = sourceFields(d, kind->key_section);
  if (!kind->read_from_files) f.path = nullptr;
  return f;
}

/// The dialog's words for each data source, one row per name of dataSources() (a source
/// without a row shows its name): the combo's title, the help under it, the file dialog's
/// filter of a source read from a file, and the label of its labels file. QT_TRANSLATE_NOOP
/// files them under the GUI's one context (gui/tr.h); Tr::tr translates them when shown.
struct SourceWords {
  const char* name;
  const char* title;
  const char* help = nullptr;
  const char* filter = nullptr;
  const char* labels = nullptr;
};

constexpr SourceWords kSourceWords[] = {
    {"sine", QT_TRANSLATE_NOOP("TrainScope", "Sine curve (built-in, regression)")},
    {"moons", QT_TRANSLATE_NOOP("TrainScope", "Two moons (built-in, 2 classes)")},
    {"circles", QT_TRANSLATE_NOOP("TrainScope", "Two circles (built-in, 2 classes)")},
    {"spirals", QT_TRANSLATE_NOOP("TrainScope", "Two spirals (built-in, 2 classes)")},
    {"sine-sequence",
     QT_TRANSLATE_NOOP("TrainScope", "Sine sequences (built-in, regression, for recurrent models)")},
    {"fashion-mnist", QT_TRANSLATE_NOOP("TrainScope", "Fashion-MNIST clothing images")},
    {"csv", QT_TRANSLATE_NOOP("TrainScope", "CSV table"),
     QT_TRANSLATE_NOOP("TrainScope",
                       "One row per sample with a header row; the target column holds the class "
                       "names or the numbers to predict. Every other column is a feature."),
     QT_TRANSLATE_NOOP("TrainScope", "Tables (*.csv *.tsv *.txt)")},
    {"image-folder", QT_TRANSLATE_NOOP("TrainScope", "Image folder (one folder per class)"),
     QT_TRANSLATE_NOOP("TrainScope",
                       "A folder with one subfolder per class holding its images (PNG, JPEG, "
                       "BMP), or train/, val/ and test/ folders each laid out so.")},
    {"npy", QT_TRANSLATE_NOOP("TrainScope", "NumPy arrays (.npz or .npy)"),
     QT_TRANSLATE_NOOP("TrainScope",
                       "An .npz file with arrays x and y (and x_val, y_val, x_test, y_test), or an "
                       ".npy file of inputs with an .npy file of targets."),
     QT_TRANSLATE_NOOP("TrainScope", "NumPy files (*.npz *.npy)"),
     QT_TRANSLATE_NOOP("TrainScope", "Targets file (.npy):")},
    {"idx", QT_TRANSLATE_NOOP("TrainScope", "IDX files (MNIST format)"),
     QT_TRANSLATE_NOOP("TrainScope",
                       "An IDX file of inputs and one of labels, as MNIST, KMNIST or EMNIST ship "
                       "them (plain or .gz)."),
     QT_TRANSLATE_NOOP("TrainScope", "IDX files (*-ubyte *-ubyte.gz *.idx *.gz)"),
     QT_TRANSLATE_NOOP("TrainScope", "Labels file:")},
};

const SourceWords* wordsOf(const std::string& name) {
  for (const SourceWords& w : kSourceWords)
    if (name == w.name) return &w;
  return nullptr;
}

std::string dataJson(const DataConfig& d) {
  TrainConfig c;
  c.data = d;
  return configToJson(c)["data"].dump();
}

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

}  // namespace

QString DataDialog::sourceTitle(const std::string& name) {
  const SourceWords* w = wordsOf(name);
  return w ? Tr::tr(w->title) : QString::fromStdString(name);
}

DataDialog::DataDialog(const DataConfig& current, QWidget* parent)
    : QDialog(parent), base_(current) {
  setObjectName(QStringLiteral("dataDialog"));
  resize(760, 640);
  auto* outer = new QVBoxLayout(this);
  auto* form = new QFormLayout;
  outer->addLayout(form);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

  source_ = new QComboBox(this);
  source_->setObjectName(QStringLiteral("dataSourceComboBox"));
  for (const DataSourceKind& k : dataSources())
    source_->addItem(QString(), QString::fromStdString(k.name));
  form->addRow(new QLabel(this), source_);
  source_help_ = new QLabel(this);
  source_help_->setWordWrap(true);
  form->addRow(source_help_);

  auto pathRow = [this, form](QLabel*& label, QLineEdit*& edit, QPushButton*& button,
                              const char* edit_name, const char* button_name, bool labels) {
    label = new QLabel(this);
    edit = new QLineEdit(this);
    edit->setObjectName(QLatin1String(edit_name));
    button = new QPushButton(this);
    button->setObjectName(QLatin1String(button_name));
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(button);
    form->addRow(label, row);
    connect(button, &QPushButton::clicked, this, [this, labels] { browse(labels); });
    connect(edit, &QLineEdit::editingFinished, this, [this, labels] {
      if (!labels) loadColumns();
      inputsChanged();
    });
  };
  pathRow(path_label_, path_, browse_, "dataPathLineEdit", "dataBrowseButton", false);
  pathRow(labels_label_, labels_path_, labels_browse_, "dataLabelsPathLineEdit",
          "dataLabelsBrowseButton", true);

  target_label_ = new QLabel(this);
  target_ = new QComboBox(this);
  target_->setObjectName(QStringLiteral("targetColumnComboBox"));
  form->addRow(target_label_, target_);
  task_label_ = new QLabel(this);
  task_ = new QComboBox(this);
  task_->setObjectName(QStringLiteral("dataTaskComboBox"));
  for (const char* t : {"auto", "classification", "regression"})
    task_->addItem(QString(), QLatin1String(t));
  form->addRow(task_label_, task_);
  channels_label_ = new QLabel(this);
  channels_ = new QComboBox(this);
  channels_->setObjectName(QStringLiteral("imageChannelsComboBox"));
  channels_->addItem(QString(), 1);
  channels_->addItem(QString(), 3);
  form->addRow(channels_label_, channels_);
  size_label_ = new QLabel(this);
  height_ = new QSpinBox(this);
  height_->setObjectName(QStringLiteral("imageHeightSpinBox"));
  width_ = new QSpinBox(this);
  width_->setObjectName(QStringLiteral("imageWidthSpinBox"));
  auto* size_row = new QHBoxLayout;
  for (QSpinBox* s : {height_, width_}) {
    s->setRange(0, 4096);
    size_row->addWidget(s);
    connect(s, &QSpinBox::editingFinished, this, &DataDialog::inputsChanged);
  }
  resize_ = new QComboBox(this);
  resize_->setObjectName(QStringLiteral("imageResizeComboBox"));
  for (const char* mode : {"bilinear", "nearest", "bicubic", "area"})
    resize_->addItem(QString(), QString::fromLatin1(mode));
  size_row->addWidget(resize_);
  connect(resize_, &QComboBox::activated, this, &DataDialog::inputsChanged);
  form->addRow(size_label_, size_row);
  // The split belongs to the data (an image folder got overfit-sine's 0.5).
  val_fraction_ = new QDoubleSpinBox(this);
  val_fraction_->setObjectName(QStringLiteral("valFractionSpinBox"));
  val_fraction_->setDecimals(3);
  val_fraction_->setSingleStep(0.05);
  setKeyRange(val_fraction_, "data.val_fraction", 0.001, 1, 0.001);
  val_fraction_label_ = new QLabel(this);
  val_fraction_label_->setBuddy(val_fraction_);
  form->addRow(val_fraction_label_, val_fraction_);
  connect(val_fraction_, &QDoubleSpinBox::editingFinished, this, &DataDialog::inputsChanged);
  stratify_ = new QCheckBox(this);
  stratify_->setObjectName(QStringLiteral("stratifyCheckBox"));
  form->addRow(stratify_);

  check_ = new QPushButton(this);
  check_->setObjectName(QStringLiteral("checkDataButton"));
  outer->addWidget(check_, 0, Qt::AlignLeft);
  report_ = new QTextBrowser(this);
  report_->setObjectName(QStringLiteral("dataReportBrowser"));
  report_->setOpenLinks(false);
  outer->addWidget(report_, 1);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  outer->addWidget(buttons_);
  connect(buttons_, &QDialogButtonBox::accepted, this, &DataDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &DataDialog::reject);
  connect(check_, &QPushButton::clicked, this, &DataDialog::checkData);
  connect(source_, &QComboBox::activated, this, &DataDialog::onSourceChanged);
  for (QComboBox* c : {target_, task_, channels_})
    connect(c, &QComboBox::activated, this, &DataDialog::inputsChanged);
  connect(stratify_, &QCheckBox::toggled, this, &DataDialog::inputsChanged);

  // Show `current`.
  source_->setCurrentIndex(std::max(0, source_->findData(QString::fromStdString(current.source))));
  const QString src = source_->currentData().toString();
  DataConfig d = current;
  const SourceFields shown = fieldsOf(d, src);
  if (shown.path && *shown.path) path_->setText(QString::fromStdString(**shown.path));
  if (shown.labels_path && *shown.labels_path)
    labels_path_->setText(QString::fromStdString(**shown.labels_path));
  const std::string& task = shown.task ? *shown.task : current.csv.task;
  task_->setCurrentIndex(std::max(0, task_->findData(QString::fromStdString(task))));
  channels_->setCurrentIndex(current.image_folder.channels == 3 ? 1 : 0);
  resize_->setCurrentIndex(
      std::max(0, resize_->findData(QString::fromStdString(current.image_folder.resize))));
  if (current.image_folder.size.size() == 2) {
    height_->setValue(static_cast<int>(current.image_folder.size[0]));
    width_->setValue(static_cast<int>(current.image_folder.size[1]));
  }
  stratify_->setChecked(current.stratify);
  val_fraction_->setValue(current.val_fraction);
  target_->addItem(QString(), QVariant());  // the last column
  if (current.csv.target.name)
    target_->addItem(QString::fromStdString(*current.csv.target.name),
                     QString::fromStdString(*current.csv.target.name));
  else if (current.csv.target.index)
    target_->addItem(QString::number(*current.csv.target.index),
                     static_cast<qlonglong>(*current.csv.target.index));
  target_->setCurrentIndex(target_->count() - 1);
  retranslate();
  onSourceChanged();
  loadColumns();  // a table's columns for the target chooser
}

DataConfig DataDialog::dataConfig() const {
  DataConfig d = base_;
  const QString src = source_->currentData().toString();
  d.source = src.toStdString();
  // Only the chosen source's keys are set: validate() refuses a path of another source.
  d.path.reset();
  d.csv.path.reset();
  d.image_folder.path.reset();
  d.npy.path.reset();
  d.npy.y_path.reset();
  d.idx.path.reset();
  d.idx.y_path.reset();
  const std::string path = path_->text().trimmed().toStdString();
  const std::string labels = labels_path_->text().trimmed().toStdString();
  const SourceFields f = fieldsOf(d, src);
  if (f.path && !path.empty()) *f.path = path;
  if (f.labels_path && !labels.empty()) *f.labels_path = labels;
  if (f.task) *f.task = task_->currentData().toString().toStdString();
  if (f.target) {
    *f.target = {};
    const QVariant t = target_->currentData();
    if (t.typeId() == QMetaType::QString) f.target->name = t.toString().toStdString();
    if (t.typeId() == QMetaType::LongLong) f.target->index = t.toLongLong();
  }
  if (f.channels) *f.channels = channels_->currentData().toInt();
  if (f.image_size) {
    f.image_size->clear();
    if (height_->value() > 0 && width_->value() > 0)
      *f.image_size = {height_->value(), width_->value()};
    d.image_folder.resize = resize_->currentData().toString().toStdString();
  }
  d.stratify = stratify_->isChecked();
  d.val_fraction = val_fraction_->value();
  return d;
}

void DataDialog::onSourceChanged() {
  const QString src = source_->currentData().toString();
  // Another source than the settings had: the split the key table suggests, not the preset's.
  if (src.toStdString() != base_.source)
    val_fraction_->setValue(configKeyInfo("data.val_fraction").default_value.get<double>());
  else
    val_fraction_->setValue(base_.val_fraction);
  const DataSourceKind* kind = findDataSource(src.toStdString());
  DataConfig scratch;
  const SourceFields f = fieldsOf(scratch, src);
  const bool files = f.path != nullptr, pair = f.labels_path != nullptr;
  const bool csv = f.target != nullptr, folder = f.image_size != nullptr;
  for (QWidget* w : std::initializer_list<QWidget*>{path_label_, path_, browse_})
    w->setVisible(files);
  for (QWidget* w : std::initializer_list<QWidget*>{labels_label_, labels_path_, labels_browse_})
    w->setVisible(pair);
  target_label_->setVisible(csv);
  target_->setVisible(csv);
  task_label_->setVisible(f.task != nullptr);
  task_->setVisible(f.task != nullptr);
  for (QWidget* w : std::initializer_list<QWidget*>{channels_label_, channels_, size_label_,
                                                    height_, width_, resize_})
    w->setVisible(folder);
  stratify_->setVisible(!kind || kind->classification || f.task != nullptr);
  retranslate();
  inputsChanged();
}

void DataDialog::browse(bool labels) {
  const QString src = source_->currentData().toString();
  QLineEdit* edit = labels ? labels_path_ : path_;
  const QString start = edit->text().isEmpty() ? path_->text() : edit->text();
  QString chosen;
  const DataSourceKind* kind = findDataSource(src.toStdString());
  if (!labels && kind && kind->image_data) {  // images are read from a folder
    chosen = QFileDialog::getExistingDirectory(this, Tr::tr("Choose the data folder"), start);
  } else {
    const SourceWords* words = wordsOf(src.toStdString());
    const QString filter = words && words->filter ? Tr::tr(words->filter) : Tr::tr("All files (*)");
    chosen = QFileDialog::getOpenFileName(this, Tr::tr("Choose the data file"), start,
                                          filter + QStringLiteral(";;") + Tr::tr("All files (*)"));
  }
  if (chosen.isEmpty()) return;
  edit->setText(QFileInfo(chosen).absoluteFilePath());
  if (!labels) loadColumns();
  inputsChanged();
}

void DataDialog::loadColumns() {
  DataConfig scratch;
  if (!fieldsOf(scratch, source_->currentData().toString()).target) return;  // not a table
  const std::string path = path_->text().trimmed().toStdString();
  if (path.empty()) return;
  const int gen = ++columns_generation_;
  const DataConfig d = dataConfig();
  CsvReadOptions options{d.csv.header, d.csv.delimiter, d.csv.missing};
  QPointer<DataDialog> self(this);
  QThreadPool::globalInstance()->start([self, gen, path, options] {
    QStringList columns;
    QString error;
    try {
      for (const CsvColumn& c : readCsv(path, options).columns)
        columns << QString::fromStdString(c.name);
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(
        qApp, [self, gen, columns, error] {
          if (self) self->showColumns(gen, columns, error);
        },
        Qt::QueuedConnection);
  });
}

void DataDialog::showColumns(int generation, const QStringList& columns, const QString& error) {
  if (generation != columns_generation_) return;
  if (!error.isEmpty()) {
    report_->setHtml(QStringLiteral("<p style='color:%2'>%1</p>").arg(error.toHtmlEscaped(), palette::css(palette::kErrorText)));
    return;
  }
  const std::string before = dataJson(dataConfig());
  const QVariant keep = target_->currentData();
  target_->clear();
  target_->addItem(Tr::tr("the last column"), QVariant());
  for (const QString& c : columns) target_->addItem(c, c);
  int index = keep.typeId() == QMetaType::QString ? target_->findData(keep) : 0;
  if (keep.typeId() == QMetaType::LongLong) {
    const qlonglong i = keep.toLongLong();
    const qlonglong n = columns.size();
    if (i >= -n && i < n) index = static_cast<int>((i + n) % n) + 1;
  }
  target_->setCurrentIndex(std::max(0, index));
  if (dataJson(dataConfig()) != before) inputsChanged();  // the same choice, named otherwise
}

void DataDialog::inputsChanged() {
  ++generation_;  // a check still running is for other inputs
  check_->setEnabled(true);
  check_->setText(Tr::tr("Check data"));
}

void DataDialog::checkData() {
  const int gen = ++generation_;
  checking_generation_ = gen;
  const DataConfig d = dataConfig();
  check_->setEnabled(false);
  check_->setText(Tr::tr("Checking…"));
  QPointer<DataDialog> self(this);
  QThreadPool::globalInstance()->start([self, gen, d] {
    std::shared_ptr<DataReport> report;
    QString error;
    try {
      TrainConfig c;
      c.data = d;
      validate(c);
      report = std::make_shared<DataReport>(dataReport(d));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(
        qApp, [self, gen, d, report, error] {
          if (self) self->showReport(gen, d, report.get(), error);
        },
        Qt::QueuedConnection);
  });
}

void DataDialog::showReport(int generation, const DataConfig& checked, const DataReport* r,
                            const QString& error) {
  if (generation != generation_) {
    // The inputs changed while checking: an OK waiting for a check checks the new inputs,
    // unless a check of them is already under way.
    if (accept_after_check_ && checking_generation_ != generation_) checkData();
    return;
  }
  check_->setEnabled(true);
  check_->setText(Tr::tr("Check data"));
  if (!r) {
    checked_.reset();
    accept_after_check_ = false;
    report_->setHtml(QStringLiteral("<p style='color:%4'><b>%1</b><br>%2</p><p>%3</p>")
                         .arg(Tr::tr("This data cannot be used:"), error.toHtmlEscaped(),
                              Tr::tr("The settings keep the previous data."), palette::css(palette::kErrorText)));
    emit checkFinished(false);
    return;
  }
  checked_ = dataJson(checked);
  const DataSummary& s = r->summary;
  QString h;
  h += QStringLiteral("<h3>%1</h3>").arg(Tr::tr("%1 training, %2 validation, %3 test samples")
                                            .arg(s.n_train).arg(s.n_val).arg(s.n_test));
  QStringList shape;
  for (int64_t v : s.input_shape) shape << QString::number(v);
  h += QStringLiteral("<p>");
  if (!r->files.empty()) h += Tr::tr("Read from: %1").arg(esc(r->files)) + QStringLiteral("<br>");
  h += Tr::tr("Input shape per sample: [%1], stored as %2").arg(shape.join(QStringLiteral(", ")),
                                                               esc(s.x_dtype)) + QStringLiteral("<br>");
  h += (s.task == "classification" ? Tr::tr("Task: classification into %1 classes (cross-entropy loss)").arg(s.n_classes)
                                   : Tr::tr("Task: regression of %1 value(s) (mean squared error)").arg(s.outputs)) +
       QStringLiteral("<br>");
  h += Tr::tr("Standardisation: %1 (statistics of the training split)").arg(esc(r->standardize)) +
       QStringLiteral("<br>");
  h += (r->bytes >= 1000000 ? Tr::tr("Memory: %1 MB").arg(static_cast<double>(r->bytes) / 1e6, 0, 'f', 1)
                             : Tr::tr("Memory: %1 kB").arg(static_cast<double>(r->bytes) / 1e3, 0, 'f', 1)) +
       QStringLiteral("</p>");
  for (std::size_t i = 0; i < r->warnings.size(); ++i) {
    const QString text = i < r->warning_facts.size() ? EventText::dataWarning(r->warning_facts[i].kind, r->warning_facts[i].name,
                                                          r->warning_facts[i].count,
                                                          r->warning_facts[i].ratio)
                                                     : QString::fromStdString(r->warnings[i]);
    h += QStringLiteral("<p style='color:%2'>⚠ %1</p>").arg(text.toHtmlEscaped(), palette::css(palette::kWarningText));
  }
  for (const std::string& n : r->notes)
    h += QStringLiteral("<p style='color:%2'>%1</p>").arg(esc(n), palette::css(palette::kMutedText));
  if (!r->classes.empty()) {
    int64_t most = 1;
    for (const ClassCount& c : r->classes) most = std::max(most, c.train);
    h += QStringLiteral("<table cellspacing=2><tr><th align=left>%1</th><th>%2</th><th>%3</th>"
                        "<th>%4</th><th></th></tr>")
             .arg(Tr::tr("Class"), Tr::tr("train"), Tr::tr("val"), Tr::tr("test"));
    for (const ClassCount& c : r->classes) {
      const int bar = static_cast<int>(200.0 * static_cast<double>(c.train) / most);
      h += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td>"
                          "<td align=right>%4</td><td><table cellspacing=0 cellpadding=0><tr>"
                          "<td width=%5 height=10 bgcolor='%6'></td></tr></table></td></tr>")
               .arg(QCoreApplication::translate("TrainScope", c.name.c_str()).toHtmlEscaped())
               .arg(c.train).arg(c.val).arg(c.test).arg(std::max(1, bar))
               .arg(palette::css(palette::kTrain));
    }
    h += QStringLiteral("</table>");
  }
  if (!r->first_rows.empty()) {
    h += QStringLiteral("<p><b>%1</b></p><table border=1 cellspacing=0 cellpadding=2><tr>")
             .arg(Tr::tr("The first training rows, as the file holds them:"));
    for (const std::string& f : s.feature_names) h += QStringLiteral("<th>%1</th>").arg(esc(f));
    h += QStringLiteral("<th>%1</th></tr>").arg(Tr::tr("target"));
    for (const auto& row : r->first_rows) {
      h += QStringLiteral("<tr>");
      for (const std::string& cell : row) h += QStringLiteral("<td>%1</td>").arg(esc(cell));
      h += QStringLiteral("</tr>");
    }
    h += QStringLiteral("</table>");
  }
  if (!r->first_images.empty() && s.image_shape.size() == 3) {
    const int c = static_cast<int>(s.image_shape[0]), ih = static_cast<int>(s.image_shape[1]),
              iw = static_cast<int>(s.image_shape[2]);
    h += QStringLiteral("<p><b>%1</b></p><table cellspacing=3>").arg(Tr::tr("The first images of each class:"));
    int64_t row_class = -2;
    for (std::size_t k = 0; k < r->first_images.size(); ++k) {
      const auto& [cls, px] = r->first_images[k];
      const QImage img = planarImage(c, ih, iw, [&px = px](std::size_t i) {
        return i < px.size() ? px[i] : uint8_t{0};
      });
      const QString url = QStringLiteral("report-image-%1-%2").arg(generation).arg(k);
      report_->document()->addResource(QTextDocument::ImageResource, QUrl(url),
                                       img.scaled(64, 64, Qt::KeepAspectRatio));
      if (cls != row_class) {
        if (row_class != -2) h += QStringLiteral("</tr>");
        const QString name = cls >= 0 && cls < static_cast<int64_t>(s.class_names.size())
                                 ? QCoreApplication::translate("TrainScope", s.class_names[cls].c_str())
                                 : QString();
        h += QStringLiteral("<tr><td>%1</td>").arg(name.toHtmlEscaped());
        row_class = cls;
      }
      h += QStringLiteral("<td><img src='%1'></td>").arg(url);
    }
    h += QStringLiteral("</tr></table>");
  }
  report_->setHtml(h);
  emit checkFinished(true);
  if (std::exchange(accept_after_check_, false) && checkedOk()) QDialog::accept();
}

QString DataDialog::reportText() const { return report_->toPlainText(); }

bool DataDialog::checkedOk() const { return checked_ && *checked_ == dataJson(dataConfig()); }

void DataDialog::accept() {
  if (checkedOk()) {
    QDialog::accept();
    return;
  }
  accept_after_check_ = true;  // check first; accepted when the data passes
  checkData();
}

void DataDialog::retranslate() {
  setWindowTitle(Tr::tr("Data"));
  for (int i = 0; i < source_->count(); ++i)
    source_->setItemText(i, sourceTitle(source_->itemData(i).toString().toStdString()));
  if (auto* form = qobject_cast<QFormLayout*>(static_cast<QVBoxLayout*>(layout())->itemAt(0)->layout()))
    if (auto* l = qobject_cast<QLabel*>(form->labelForField(source_))) l->setText(Tr::tr("Source:"));
  const QString src = source_->currentData().toString();
  const DataSourceKind* kind = findDataSource(src.toStdString());
  const SourceWords* words = wordsOf(src.toStdString());
  path_label_->setText(kind && kind->image_data ? Tr::tr("Folder:") : Tr::tr("File:"));
  labels_label_->setText(words && words->labels ? Tr::tr(words->labels) : QString());
  browse_->setText(Tr::tr("Browse…"));
  labels_browse_->setText(Tr::tr("Browse…"));
  target_label_->setText(Tr::tr("Target column:"));
  if (target_->count() > 0 && !target_->itemData(0).isValid())
    target_->setItemText(0, Tr::tr("the last column"));
  task_label_->setText(Tr::tr("Task:"));
  task_->setItemText(0, Tr::tr("automatic (from the target's values)"));
  task_->setItemText(1, Tr::tr("classification"));
  task_->setItemText(2, Tr::tr("regression"));
  channels_label_->setText(Tr::tr("Colour:"));
  channels_->setItemText(0, Tr::tr("grayscale (1 channel)"));
  channels_->setItemText(1, Tr::tr("RGB (3 channels)"));
  size_label_->setText(Tr::tr("Resize to (height, width):"));
  resize_->setItemText(0, Tr::tr("bilinear"));
  resize_->setItemText(1, Tr::tr("nearest"));
  resize_->setItemText(2, Tr::tr("bicubic"));
  resize_->setItemText(3, Tr::tr("area"));
  resize_->setToolTip(Tr::tr("How images are resized to the size (data.image_folder.resize): "
                             "bilinear with antialiasing is torchvision's Resize default."));
  height_->setSpecialValueText(Tr::tr("first image's"));
  width_->setSpecialValueText(Tr::tr("first image's"));
  stratify_->setText(Tr::tr("Stratified split (each class keeps the validation fraction)"));
  val_fraction_label_->setText(Tr::tr("Validation fraction:"));
  val_fraction_->setToolTip(Tr::tr("The share of the samples held out for validation "
                                   "(data.val_fraction); not used where the data has its own "
                                   "validation file or folder."));
  check_->setText(Tr::tr("Check data"));
  source_help_->setText(words && words->help ? Tr::tr(words->help)
                                              : Tr::tr("Built-in data: nothing to choose."));
  if (report_->toPlainText().isEmpty())
    report_->setPlainText(Tr::tr("Choose the data, then click \"Check data\" to see what "
                                 "training will get: samples, classes, warnings."));
}

}  // namespace trainscope
