#include "gui/views/shapes_dialog.h"

#include "gui/plots/palette.h"
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QPointer>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>
#include <memory>

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/model/torchscript.h"
#include "core/train/probes/shapes.h"
#include "gui/tr.h"

namespace trainscope {

namespace {

QString shape(const std::vector<int64_t>& s) { return QString::fromStdString(shapeText(s)); }

/// "float32 [64, 784] on cpu, values -0.81 .. 2.02"
QString facts(const TensorFacts& f) {
  return Tr::tr("%1 %2 on %3, values %4 .. %5")
      .arg(QString::fromStdString(f.dtype), shape(f.shape), QString::fromStdString(f.device),
           QString::number(f.min, 'g', 4), QString::number(f.max, 'g', 4));
}

/// The import report of a TorchScript file as HTML (inspectTorchScript's fields).
QString importHtml(const ScriptModuleInfo& info) {
  QStringList lines;
  lines << Tr::tr("<b>%1</b>: TorchScript made by %2 (class %3), saved in %4 mode.")
               .arg(QString::fromStdString(info.file).toHtmlEscaped(),
                    info.traced ? QStringLiteral("torch.jit.trace")
                                : QStringLiteral("torch.jit.script"),
                    QString::fromStdString(info.type_name).toHtmlEscaped(),
                    info.training ? Tr::tr("training") : Tr::tr("eval"));
  lines << Tr::tr("%1 trainable and %2 frozen parameters in %3 tensors, %4 buffers, %5 "
                  "submodules; %6.")
               .arg(info.trainable_parameters)
               .arg(info.frozen_parameters)
               .arg(info.parameters.size())
               .arg(info.buffers.size())
               .arg(info.submodules.size())
               .arg(QString::fromStdString(info.forward_schema).toHtmlEscaped());
  QStringList names;
  for (const auto& p : info.parameters) names << QString::fromStdString(p.name);
  if (names.size() > 8) names = names.mid(0, 8) << QStringLiteral("…");
  lines << Tr::tr("Parameters: %1").arg(names.join(QStringLiteral(", ")).toHtmlEscaped());
  for (const auto& w : info.warnings)
    lines << QStringLiteral("<span style='color:%2'>%1</span>")
                 .arg(Tr::tr("Warning: %1").arg(QString::fromStdString(w).toHtmlEscaped()),
                      palette::css(palette::kWarningText));
  return lines.join(QStringLiteral("<br>"));
}

}  // namespace

QString ShapesDialog::importReport() const { return import_->text(); }

ShapesDialog::ShapesDialog(const TrainConfig& config, QWidget* parent, bool choose)
    : QDialog(parent) {
  setObjectName(QStringLiteral("shapesDialog"));
  setWindowTitle(Tr::tr("Shapes of %1").arg(QString::fromStdString(config.name)));
  resize(620, 520);
  auto* layout = new QVBoxLayout(this);
  import_ = new QLabel(this);
  import_->setObjectName(QStringLiteral("shapesImportLabel"));
  import_->setWordWrap(true);
  import_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  const ModelKind* kind = findModelKind(config.model.kind);
  const bool from_file = kind && kind->architecture_from_file;  // the user's module file
  import_->setVisible(from_file);
  layout->addWidget(import_);
  summary_ = new QLabel(Tr::tr("Running one batch through the model…"), this);
  summary_->setObjectName(QStringLiteral("shapesSummaryLabel"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);
  table_ = new QTableWidget(0, 4, this);
  table_->setObjectName(QStringLiteral("shapesTable"));
  table_->setHorizontalHeaderLabels(
      {Tr::tr("Name"), Tr::tr("Layer"), Tr::tr("Output (batch first)"), Tr::tr("Parameters")});
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(table_, 1);
  output_ = new QLabel(this);
  output_->setObjectName(QStringLiteral("shapesOutputLabel"));
  output_->setWordWrap(true);
  output_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(output_);
  auto* buttons = new QDialogButtonBox(choose ? QDialogButtonBox::Cancel : QDialogButtonBox::Close, this);
  if (choose) {
    use_ = buttons->addButton(Tr::tr("Use this model"), QDialogButtonBox::AcceptRole);
    use_->setObjectName(QStringLiteral("shapesUseButton"));
    use_->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  }
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);

  QPointer<ShapesDialog> self(this);
  QThreadPool::globalInstance()->start([self, config, from_file] {
    std::shared_ptr<ShapeReport> report;
    QString error, import;
    try {
      if (from_file)
        import = importHtml(inspectTorchScript(config.model.torchscript.path.value_or(""),
                                               config.model.torchscript.allow_file_access));
      report = std::make_shared<ShapeReport>(shapeReport(config));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(
        qApp, [self, report, error, import] {
          if (self) self->show(report.get(), error, import);
        },
        Qt::QueuedConnection);
  });
}

void ShapesDialog::show(const ShapeReport* r, const QString& error, const QString& import) {
  error_ = error;
  import_->setText(import);
  if (use_) use_->setEnabled(r != nullptr);
  if (!r) {
    summary_->setText(QStringLiteral("<span style='color:%2'>%1</span>")
                          .arg((import_->isVisibleTo(this) && import.isEmpty()
                                    ? Tr::tr("This file cannot be trained: %1")
                                    : Tr::tr("The model does not fit the data: %1"))
                                   .arg(error.toHtmlEscaped()),
                               palette::css(palette::kErrorText)));
    emit finished(false);
    return;
  }
  QString data = Tr::tr("Data: %1 training / %2 validation / %3 test samples, %4 outputs.")
                     .arg(r->n_train)
                     .arg(r->n_val)
                     .arg(r->n_test)
                     .arg(r->outputs);
  if (!r->image_shape.empty()) data += QLatin1Char(' ') + Tr::tr("Images %1 (C, H, W).").arg(shape(r->image_shape));
  summary_->setText(data + QStringLiteral("<br>") + Tr::tr("Batch x: %1").arg(facts(r->x)) +
                    QStringLiteral("<br>") + Tr::tr("Batch y: %1").arg(facts(r->y)));
  table_->setRowCount(static_cast<int>(r->layers.size()));
  for (int i = 0; i < static_cast<int>(r->layers.size()); ++i) {
    const LayerShape& l = r->layers[static_cast<std::size_t>(i)];
    const QString params = l.frozen_parameters > 0
                               ? Tr::tr("%1 (+%2 frozen)").arg(l.trainable_parameters).arg(l.frozen_parameters)
                               : QString::number(l.trainable_parameters);
    const QString cells[] = {QString::fromStdString(l.name), QString::fromStdString(l.description),
                             l.shape_known ? shape(l.output_shape) : QStringLiteral("?"), params};
    for (int c = 0; c < 4; ++c) table_->setItem(i, c, new QTableWidgetItem(cells[c]));
  }
  output_->setText(Tr::tr("Output: %1. The model takes the data's batches and gives one row of %2 "
                          "per sample; %3 trainable parameters.")
                       .arg(facts(r->output))
                       .arg(r->outputs)
                       .arg(r->trainable_parameters));
  emit finished(true);
}

}  // namespace trainscope
