#include "gui/plots/plot_export.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPdfWriter>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSvgGenerator>
#include <cmath>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/csv_cell.h"
#include "core/system/number_format.h"
#include "gui/plots/live_plot.h"
#include "gui/plots/plot_style.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

constexpr const char* kExportDirKey = "exportDir";

bool writeAtomically(const QString& file, const QByteArray& bytes, QString* error) {
  try {
    writeFileAtomic(std::filesystem::path(file.toStdString()), bytes.constData(),
                    static_cast<size_t>(bytes.size()));
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromStdString(e.what());
    return false;
  }
}

QString rememberedDir() {
  const QString dir = QSettings().value(QLatin1String(kExportDirKey)).toString();
  return dir.isEmpty() || !QFileInfo(dir).isDir() ? QDir::homePath() : dir;
}

}  // namespace

double projectorTickPixels(QSize size) {
  return std::max(12.0, std::min(size.width() / 64.0, size.height() / 36.0));
}

QList<QSize> projectorSizes() { return {QSize(1600, 900), QSize(1920, 1080), QSize(1024, 768)}; }

bool exportPlotImage(QCustomPlot* plot, const QString& file, QSize size, double pixelRatio,
                     bool projector, QString* error) {
  const QString suffix = QFileInfo(file).suffix().toLower();
  if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") &&
      suffix != QLatin1String("pdf")) {
    if (error)
      *error = Tr::tr("%1: the file name must end in .png, .svg or .pdf (the format).").arg(file);
    return false;
  }
  if (QFileInfo(file).isDir()) {
    if (error) *error = Tr::tr("%1 is a folder; choose a file name in it.").arg(file);
    return false;
  }
  if (size.isEmpty()) size = plot->size();
  // The projector style for this picture only, its texts relative to the picture's size (issue
  // 43 item 21: 14 px ticks on a 1600x900 slide): scaled from what the plot shows now (a plot
  // in presentation mode is styled already), lines with them.
  PlotStyler styler;
  const bool presenting = plot->property("trainscopePresenting").toBool();
  const bool style = projector;
  if (style) {
    const double shown_px = std::max(1, QFontInfo(plot->yAxis->tickLabelFont()).pixelSize());
    const double target_px = projectorTickPixels(size);
    const double lines = std::max(1.0, (presenting ? 1.0 : 1.5) * target_px / kPresentationTickPx);
    styler.apply(plot, lines, target_px / shown_px);
  }
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  bool drawn = true;
  if (suffix == QLatin1String("png")) {
    drawn = plot->toPixmap(size.width(), size.height(), pixelRatio).save(&buffer, "PNG");
  } else if (suffix == QLatin1String("svg")) {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setResolution(96);  // CSS pixels: a browser shows it `size` pixels large
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(plot->objectName());
    QCPPainter painter(&svg);
    plot->toPainter(&painter, size.width(), size.height());
  } else {
    QPdfWriter pdf(&buffer);
    pdf.setResolution(96);  // one plot pixel is one PDF pixel at 96 per inch
    pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96, size.height() * 72.0 / 96),
                              QPageSize::Point));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setCreator(QStringLiteral("TrainScope"));
    QCPPainter painter(&pdf);
    plot->toPainter(&painter, size.width(), size.height());
  }
  buffer.close();
  if (style) {
    styler.apply(plot, 1, 1);
    plot->setProperty("trainscopePresenting", presenting);  // the plot's own style, if any
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
  if (!drawn || bytes.isEmpty()) {
    if (error) *error = Tr::tr("%1: the picture could not be drawn.").arg(file);
    return false;
  }
  return writeAtomically(file, bytes, error);
}

bool exportPlotCsv(QCustomPlot* plot, const QString& file, QString* error) {
  if (QFileInfo(file).isDir()) {
    if (error) *error = Tr::tr("%1 is a folder; choose a file name in it.").arg(file);
    return false;
  }
  std::string text = "curve,x,y\n";
  for (int i = 0; i < plot->graphCount(); ++i) {
    QCPGraph* g = plot->graph(i);
    if (!g->visible() || g->data()->isEmpty() || !g->valueAxis()->visible()) continue;
    const QString name = g->name().isEmpty() ? Tr::tr("curve %1").arg(i + 1) : g->name();
    const std::string field = csvTextCell(name.toStdString());
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
      text += field + ',' + formatNumber(it->key) + ',' + formatNumber(it->value) + '\n';
  }
  return writeAtomically(file, QByteArray::fromStdString(text), error);
}

PlotExportDialog::PlotExportDialog(QCustomPlot* plot, QWidget* parent)
    : QDialog(parent), plot_(plot) {
  setObjectName(QStringLiteral("plotExportDialog"));
  setWindowTitle(Tr::tr("Save the plot as an image"));
  auto* form = new QFormLayout(this);
  file_ = new QLineEdit(this);
  file_->setObjectName(QStringLiteral("exportFileEdit"));
  const QString base = plot->objectName().isEmpty() ? QStringLiteral("plot") : plot->objectName();
  file_->setText(QDir(rememberedDir()).filePath(base + QStringLiteral(".png")));
  auto* browse = new QPushButton(Tr::tr("Choose..."), this);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getSaveFileName(
        this, windowTitle(), file_->text(),
        Tr::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (!f.isEmpty()) file_->setText(f);
  });
  auto* row = new QHBoxLayout;
  row->addWidget(file_, 1);
  row->addWidget(browse);
  form->addRow(Tr::tr("File (.png, .svg or .pdf):"), row);
  width_ = new QSpinBox(this);
  height_ = new QSpinBox(this);
  width_->setObjectName(QStringLiteral("exportWidthSpinBox"));
  height_->setObjectName(QStringLiteral("exportHeightSpinBox"));
  for (QSpinBox* s : {width_, height_}) {
    s->setRange(100, 8000);
    s->setSuffix(Tr::tr(" px"));
  }
  width_->setValue(std::max(100, plot->width()));
  height_->setValue(std::max(100, plot->height()));
  // Slide sizes (16:9 first), or the plot's size on screen.
  sizes_ = new QComboBox(this);
  sizes_->setObjectName(QStringLiteral("exportSizeComboBox"));
  sizes_->addItem(Tr::tr("As shown (%1 x %2)").arg(plot->width()).arg(plot->height()),
                  QSize(std::max(100, plot->width()), std::max(100, plot->height())));
  for (const QSize& s : projectorSizes())
    sizes_->addItem(s.width() * 9 == s.height() * 16
                        ? Tr::tr("16:9 slide (%1 x %2)").arg(s.width()).arg(s.height())
                        : Tr::tr("4:3 (%1 x %2)").arg(s.width()).arg(s.height()),
                    s);
  sizes_->addItem(Tr::tr("Other (width and height below)"));
  form->addRow(Tr::tr("Size:"), sizes_);
  form->addRow(Tr::tr("Width:"), width_);
  form->addRow(Tr::tr("Height:"), height_);
  auto pick = [this](int index) {
    const QSize s = sizes_->itemData(index).toSize();
    if (s.isEmpty()) return;
    const QSignalBlocker a(width_), b(height_);
    width_->setValue(s.width());
    height_->setValue(s.height());
  };
  connect(sizes_, &QComboBox::currentIndexChanged, this, pick);
  auto other = [this] {
    const QSize s = sizes_->currentData().toSize();
    if (s != QSize(width_->value(), height_->value())) sizes_->setCurrentIndex(sizes_->count() - 1);
  };
  connect(width_, &QSpinBox::valueChanged, this, other);
  connect(height_, &QSpinBox::valueChanged, this, other);
  projector_ = new QCheckBox(Tr::tr("For a projector (texts and lines sized for the picture)"), this);
  projector_->setObjectName(QStringLiteral("exportProjectorCheckBox"));
  projector_->setToolTip(Tr::tr("Tick labels about 1/36 of a 16:9 picture's height (25 px on "
                                "1600 x 900), thick lines, projector colours."));
  form->addRow(projector_);
  // For a projector a slide: 16:9 unless a size was chosen.
  connect(projector_, &QCheckBox::toggled, this, [this](bool on) {
    if (on && sizes_->currentIndex() == 0) sizes_->setCurrentIndex(1);
  });
  projector_->setChecked(plot->property("trainscopePresenting").toBool());
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    if (save()) accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

bool PlotExportDialog::save() {
  QString error;
  const QString file = QFileInfo(file_->text().trimmed()).absoluteFilePath();
  if (!exportPlotImage(plot_, file, QSize(width_->value(), height_->value()), 1.0,
                       projector_->isChecked(), &error)) {
    QMessageBox::warning(this, windowTitle(), error);
    return false;
  }
  QSettings().setValue(QLatin1String(kExportDirKey), QFileInfo(file).absolutePath());
  return true;
}

void askExportPlotImage(QCustomPlot* plot) {
  auto* dialog = new PlotExportDialog(plot, plot->window());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->open();
}

void askExportPlotCsv(QCustomPlot* plot) {
  const QString base = plot->objectName().isEmpty() ? QStringLiteral("plot") : plot->objectName();
  const QString file = QFileDialog::getSaveFileName(
      plot->window(), Tr::tr("Save the plot's data as CSV"),
      QDir(rememberedDir()).filePath(base + QStringLiteral(".csv")), Tr::tr("CSV table (*.csv)"));
  if (file.isEmpty()) return;
  QString error;
  if (!exportPlotCsv(plot, file, &error)) {
    QMessageBox::warning(plot->window(), Tr::tr("Save the plot's data as CSV"), error);
    return;
  }
  QSettings().setValue(QLatin1String(kExportDirKey), QFileInfo(file).absolutePath());
}

void installPlotExportMenu(QCustomPlot* plot) {
  plot->setContextMenuPolicy(Qt::CustomContextMenu);
  QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot](const QPoint& at) {
    QMenu menu(plot);
    menu.addAction(Tr::tr("Save image (PNG, SVG, PDF)..."), plot,
                   [plot] { askExportPlotImage(plot); });
    menu.addAction(Tr::tr("Save data as CSV..."), plot, [plot] { askExportPlotCsv(plot); });
    // The log scale from the plot itself: presentation mode hides the bar with its box
    // (the clipping lesson's norms needed it in front of the class).
    if (auto* live = qobject_cast<LivePlot*>(plot)) {
      menu.addSeparator();
      QAction* log = menu.addAction(Tr::tr("Log scale"));
      log->setCheckable(true);
      log->setChecked(live->logScale());
      QObject::connect(log, &QAction::toggled, live, [live](bool on) {
        live->setLogScaleChosen();
        live->setLogScale(on);
      });
    }
    menu.exec(plot->mapToGlobal(at));
  });
}

}  // namespace trainscope
