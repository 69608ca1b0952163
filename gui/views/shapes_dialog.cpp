#include "gui/views/shapes_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QTableWidget>
#include <QThreadPool>
#include <QVBoxLayout>
#include <memory>

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

}  // namespace

ShapesDialog::ShapesDialog(const TrainConfig& config, QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("shapesDialog"));
  setWindowTitle(Tr::tr("Shapes of %1").arg(QString::fromStdString(config.name)));
  resize(620, 520);
  auto* layout = new QVBoxLayout(this);
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
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);

  QPointer<ShapesDialog> self(this);
  QThreadPool::globalInstance()->start([self, config] {
    std::shared_ptr<ShapeReport> report;
    QString error;
    try {
      report = std::make_shared<ShapeReport>(shapeReport(config));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(
        qApp, [self, report, error] {
          if (self) self->show(report.get(), error);
        },
        Qt::QueuedConnection);
  });
}

void ShapesDialog::show(const ShapeReport* r, const QString& error) {
  error_ = error;
  if (!r) {
    summary_->setText(QStringLiteral("<span style='color:#b00020'>%1</span>")
                          .arg(Tr::tr("The model does not fit the data: %1").arg(error.toHtmlEscaped())));
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
                             shape(l.output_shape), params};
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
