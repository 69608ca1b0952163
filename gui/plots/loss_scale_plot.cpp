#include "gui/plots/loss_scale_plot.h"

#include "gui/plots/palette.h"
#include <QEvent>
#include <QTextLayout>
#include <algorithm>

#include "gui/model/run_store.h"
#include "gui/plots/plot_area.h"
#include "gui/plots/training_plots.h"
#include "gui/tr.h"

namespace trainscope {

namespace {
const QColor& kScaleColor = palette::kScale;
const QColor& kSkipColor = palette::kAlarm;
const QColor& kMarkColor = palette::kGuide;
}  // namespace

LossScalePlot::LossScalePlot(const RunStore* store, QWidget* parent)
    : LivePlot(parent) {
  setObjectName(QStringLiteral("lossScalePlot"));
  QCPGraph* scale = addSeriesGraph(series::kStepLossScale, {});
  scale->setPen(QPen(kScaleColor, 2));
  scale->setLineStyle(QCPGraph::lsStepLeft);  // the scale holds until the next update
  QCPGraph* skipped = addSeriesGraph(series::kStepScalerSkipped, {});
  skipped->setLineStyle(QCPGraph::lsNone);
  skipped->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, kSkipColor, 8));
  setLogScale(true);  // powers of two, 65536 halving and doubling
  overlay_ = new QCPItemText(this);
  overlay_->position->setType(QCPItemPosition::ptAxisRectRatio);
  overlay_->position->setCoords(0.5, 0.5);
  overlay_->setPositionAlignment(Qt::AlignCenter);
  overlay_->setTextAlignment(Qt::AlignCenter);
  overlay_->setColor(palette().color(QPalette::PlaceholderText));
  overlay_->setClipToAxisRect(false);
  overlay_->setBrush(palette().color(QPalette::Base));  // over the empty grid, readable
  overlay_->setPadding(QMargins(8, 6, 8, 6));
  if (store) {
    connect(store, &RunStore::runStarted, this, [this](const RunInfo& info) {
      run_device_ = QString::fromStdString(info.device);
      amp_ = info.amp;
      updateOverlay();
    });
    connect(store, &RunStore::eventOccurred, this, [this](const Event& e) {
      if (e.kind == EventKind::ConfigChanged && e.what == "training.amp" && e.value) {
        amp_ = *e.value != 0;
        updateOverlay();
      }
    });
  }
  retranslate();
}

void LossScalePlot::retranslate() {
  LivePlot::retranslate();
  xAxis->setLabel(Tr::tr("Step"));
  yAxis->setLabel(Tr::tr("Loss scale"));
  graphFor(series::kStepLossScale)->setName(Tr::tr("Loss scale (GradScaler)"));
  graphFor(series::kStepScalerSkipped)->setName(Tr::tr("Skipped step (inf/NaN gradient)"));
  updateOverlay();
}

void LossScalePlot::sync() {
  LivePlot::sync();
  updateOverlay();
}

QString LossScalePlot::overlayText() const {
  if (pointCount(series::kStepLossScale) > 0) return {};
  if (run_device_.isEmpty())
    return Tr::tr(
        "With AMP on a CUDA GPU, the GradScaler's loss scale and the steps it skips appear "
        "here.");
  if (!run_device_.startsWith(QLatin1String("cuda")))
    return Tr::tr(
        "No loss scaling on the CPU: AMP computes in bf16 there, which has float32's "
        "exponent range, so small gradients do not underflow and no GradScaler is needed.");
  if (!amp_)
    return Tr::tr("AMP is off: no loss scale. Tick AMP to train in fp16 with loss scaling.");
  return Tr::tr("Waiting for the first step with AMP...");
}

void LossScalePlot::resizeEvent(QResizeEvent* event) {
  LivePlot::resizeEvent(event);
  updateOverlay();  // re-wrapped to the new width
}

void LossScalePlot::updateOverlay() {
  if (!overlay_) return;  // setLogScale() syncs during construction
  const QString raw = overlayText();
  const bool visible = !raw.isEmpty();
  // Called at every sync (30 times a second): laid out again only when the text, width or
  // font changed.
  const QString key = QStringLiteral("%1|%2|%3").arg(raw).arg(width()).arg(overlay_->font().toString());
  if (key == overlay_key_ && overlay_->visible() == visible) return;
  overlay_key_ = key;
  // QCPItemText does not wrap: break the lines to 85% of the axis rect's width (QTextLayout also
  // breaks Chinese, which has no spaces).
  QStringList lines;
  QTextLayout layout(raw, overlay_->font());
  layout.beginLayout();
  for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
    line.setLineWidth(std::max(200.0, (width() - 120) * 0.85));  // the axis rect's width
    lines << raw.mid(line.textStart(), line.textLength()).trimmed();
  }
  layout.endLayout();
  const QString text = lines.join(QLatin1Char('\n'));
  if (overlay_->text() == text && overlay_->visible() == visible) return;
  overlay_->setText(text);
  overlay_->setVisible(visible);
  replot(QCustomPlot::rpQueuedReplot);
}

// ---- AMP switch marks ----

AmpMarks::AmpMarks(PlotArea* area, const RunStore* store)
    : QObject(area), area_(area) {
  setObjectName(QStringLiteral("ampMarks"));
  connect(store, &RunStore::runStarted, this, &AmpMarks::clear);
  connect(store, &RunStore::eventOccurred, this, [this](const Event& e) {
    if (e.kind == EventKind::ConfigChanged && e.what == "training.amp" && e.value)
      add(e.step, *e.value != 0);
  });
  area->lossPlot()->installEventFilter(this);  // LanguageChange: relabel
}

void AmpMarks::add(qint64 step, bool on) {
  switches_.emplace_back(step, on);
  const double x = static_cast<double>(step) + 0.5;  // between the last old and first new step
  for (LivePlot* plot :
       {static_cast<LivePlot*>(area_->lossPlot()), static_cast<LivePlot*>(area_->gradPlot())}) {
    auto* line = new QCPItemStraightLine(plot);
    line->setPen(QPen(kMarkColor, 1, Qt::DashLine));
    line->point1->setTypeX(QCPItemPosition::ptPlotCoords);
    line->point1->setTypeY(QCPItemPosition::ptAxisRectRatio);
    line->point2->setTypeX(QCPItemPosition::ptPlotCoords);
    line->point2->setTypeY(QCPItemPosition::ptAxisRectRatio);
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
    auto* text = new QCPItemText(plot);
    text->position->setTypeX(QCPItemPosition::ptPlotCoords);
    text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(x, 0.08);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    text->setPadding(QMargins(3, 0, 0, 0));
    text->setColor(kMarkColor);
    marks_.push_back({plot, line, text, on});
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
  relabel();
}

void AmpMarks::relabel() {
  for (Mark& m : marks_) {
    if (!m.plot) continue;
    m.text->setText(m.on ? Tr::tr("AMP on") : Tr::tr("AMP off"));
    m.plot->replot(QCustomPlot::rpQueuedReplot);
  }
}

void AmpMarks::clear() {
  for (Mark& m : marks_) {
    if (!m.plot) continue;
    m.plot->removeItem(m.line);
    m.plot->removeItem(m.text);
    m.plot->replot(QCustomPlot::rpQueuedReplot);
  }
  marks_.clear();
  switches_.clear();
}

bool AmpMarks::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::LanguageChange) relabel();
  return QObject::eventFilter(watched, event);
}

void addAmpViews(PlotArea* area, const RunStore* store) {
  area->addView(PlotArea::Slot::Bottom, new LossScalePlot(store),
                [] { return Tr::tr("Loss scale"); }, QStringLiteral("loss_scale"));
  new AmpMarks(area, store);
}

}  // namespace trainscope
