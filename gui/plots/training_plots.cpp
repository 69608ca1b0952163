#include "gui/plots/training_plots.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QRegularExpression>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/run/smoothing.h"
#include "gui/event_text.h"
#include "gui/plots/palette.h"
#include "gui/tr.h"

namespace trainscope {

namespace {

/// The property of a loss plot label holding its own height (a fraction of the plot's).
const char* const kHomeY = "trainscopeHomeY";

const QColor& kTrainColor = palette::kTrain;
const QColor& kValColor = palette::kVal;
const QColor& kSmoothColor = palette::kSmoothed;
const QColor& kBestColor = palette::kBest;
const QColor& kOnsetColor = palette::kAlarm;
const QColor& kStopColor = palette::kGuide;
const QColor& kLrChangeColor = palette::kSecondary;
/// Above this many per-step points the raw curve is drawn fainter still (batch size 1 runs
/// would otherwise paint a solid band over the smoothed trend).
constexpr int kDenseSteps = 2000;
/// The smoothed curve is drawn from this many per-step points per epoch on.
constexpr int kMinStepsPerEpochToSmooth = 4;

}  // namespace

LossPlot::LossPlot(QWidget* parent) : LivePlot(parent) {
  setObjectName(QStringLiteral("lossPlot"));
  // The labels' sides and heights follow the plot's size and range, at every replot.
  connect(this, &QCustomPlot::beforeReplot, this, &LossPlot::alignLabels);
  // The previous run first, so that the current curves are drawn over it.
  // Drawn within this run's axes, never widening them (addRunGraph).
  for (const auto& [name, color] : {std::pair{series::kEpochTrainLoss, kTrainColor},
                                    std::pair{series::kEpochValLoss, kValColor}}) {
    QColor faint = color;
    faint.setAlpha(110);
    QCPGraph* g = addRunGraph(runs::kPrevious, name, {});
    QPen pen(faint, 1.8, Qt::CustomDashLine);
    pen.setDashPattern({6, 4});  // long dashes: never mistaken for the faint solid per-step curve
    g->setPen(pen);
    g->removeFromLegend();
  }
  QColor light = kTrainColor;
  light.setAlpha(70);
  addSeriesGraph(series::kStepLoss, {})->setPen(QPen(light, 1));
  // The smoothed per-step loss: not a history series (computed from step/loss on each sync).
  smoothed_ = addDenseGraph();
  smoothed_->setPen(QPen(kSmoothColor, 1.8));
  QCPGraph* train = addSeriesGraph(series::kEpochTrainLoss, {});
  train->setPen(QPen(kTrainColor, 2.5));
  train->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kTrainColor, Qt::white, 6));
  QCPGraph* val = addSeriesGraph(series::kEpochValLoss, {});
  val->setPen(QPen(kValColor, 2.5));
  val->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kValColor, Qt::white, 6));
  // The generalisation gap: the area between the validation and the training curve.
  QColor gap = kValColor;
  gap.setAlpha(45);
  val->setBrush(gap);
  val->setChannelFillGraph(train);
  markPointsWhileFew(series::kEpochTrainLoss);
  markPointsWhileFew(series::kEpochValLoss);

  best_line_ = new QCPItemStraightLine(this);
  best_line_->setPen(QPen(kBestColor, 1.5, Qt::DashLine));
  best_label_ = new QCPItemText(this);
  best_label_->setColor(kBestColor.darker(130));
  best_label_->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
  best_label_->position->setTypeX(QCPItemPosition::ptPlotCoords);
  best_label_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
  best_label_->setBrush(palette::kLabelBackground);
  best_label_->setPadding(QMargins(2, 1, 2, 1));
  best_line_->setVisible(false);
  best_label_->setVisible(false);
  legend->setWrap(2);  // four curve names fit a narrow plot in two columns
  legend->setFillOrder(legend->fillOrder(), true);
  // The names never set the window's minimum width (the plot shares the row with side views).
  legend->setMinimumSize(1, 0);
  useSmallLegendFont();
  retranslate();
}

void LossPlot::setSmoothing(Smoothing mode, double strength) {
  smoothing_ = mode;
  smoothing_strength_ = mode == Smoothing::Window ? std::max(1.0, std::round(strength))
                                                  : std::clamp(strength, 0.0, 0.999);
  smoothed_stamp_ = ~std::uint64_t{0};
  updateSmoothed();
  replot(QCustomPlot::rpQueuedReplot);
}

QVector<QCPGraphData> LossPlot::smoothedPoints() const {
  QVector<QCPGraphData> out;
  for (auto it = smoothed_->data()->constBegin(); it != smoothed_->data()->constEnd(); ++it)
    out.append(*it);
  return out;
}

void LossPlot::updateSmoothed() {
  const RunHistory* h = history();
  const Series* s = h ? h->find(series::kStepLoss) : nullptr;
  // Recomputed whole on change (one concept, one place: core's smoothing on the values the
  // raw curve shows); at most the series' budget of points, a fraction of a millisecond.
  const std::uint64_t stamp =
      s ? (h->generation() << 40) ^ (s->values().revision() << 32) ^ s->values().appended() : 0;
  if (stamp == smoothed_stamp_) return;
  smoothed_stamp_ = stamp;
  const int n = s ? static_cast<int>(s->values().size()) : 0;
  QColor light = kTrainColor;
  // With a few steps per epoch (full-batch presets) the per-step loss is already the epoch's
  // curve: a smoothed copy would only lag behind it.
  const Series* epochs = h ? h->find(series::kEpochTrainLoss) : nullptr;
  const int n_epochs = epochs ? static_cast<int>(epochs->values().size()) : 0;
  const bool worth = n >= kMinStepsPerEpochToSmooth * std::max(n_epochs, 1);
  if (!s || smoothing_ == Smoothing::Off || !worth) {
    smoothed_->data()->clear();
    smoothed_->setVisible(false);
    smoothed_->removeFromLegend();
    light.setAlpha(90);
    graphFor(series::kStepLoss)->setPen(QPen(light, 1));
    return;
  }
  light.setAlpha(n > kDenseSteps ? 28 : 60);
  graphFor(series::kStepLoss)->setPen(QPen(light, 1));
  if (!legend->hasItemWithPlottable(smoothed_)) {
    // Right after the raw curve it smooths.
    smoothed_->addToLegend();
  }
  const auto& pts = s->values().points();
  std::vector<double> y(pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) y[i] = pts[i].y;
  const std::vector<double> sm =
      smoothing_ == Smoothing::Ema
          ? emaDebiased(y, smoothing_strength_)
          : movingAverage(y, static_cast<std::size_t>(smoothing_strength_));
  QVector<QCPGraphData> data(static_cast<int>(pts.size()));
  for (std::size_t i = 0; i < pts.size(); ++i) data[static_cast<int>(i)] = {pts[i].x, sm[i]};
  smoothed_->data()->set(data, true);
  smoothed_->setVisible(true);
}

void LossPlot::updateBest() {
  const RunHistory* h = history();
  const Series* s = h ? h->find(series::kEpochValLoss) : nullptr;
  best_epoch_.reset();
  if (s) {
    const auto& pts = s->values().points();
    // The non-finite epochs are markers, not points: epoch i+1 of the i-th point, plus the
    // markers before it (while the series is unfolded: it folds past 10000 epochs).
    std::vector<double> marked;
    for (int k = 0; k < kNonFiniteKinds; ++k)
      for (const SeriesPoint& m : s->markers(static_cast<NonFiniteKind>(k)).points())
        marked.push_back(m.x);
    std::sort(marked.begin(), marked.end());
    for (std::size_t i = 0; i < pts.size(); ++i) {
      if (!best_epoch_ || pts[i].y < best_value_) {
        const auto before = std::lower_bound(marked.begin(), marked.end(), pts[i].x) - marked.begin();
        best_epoch_ = static_cast<qint64>(i + 1 + before);
        best_value_ = pts[i].y;
        best_step_ = pts[i].x;
      }
    }
  }
  // No epoch is "best" when none beat the untrained model: a diverged run's lowest validation
  // loss (3.6e+23 at epoch 1) or NaN says nothing a marker should point at. The untrained
  // model's loss is the first step's training loss (else the first epoch's); the margin of
  // 1.5x leaves room for the noise of one batch, so a slow learner still gets its marker.
  if (best_epoch_ && h) {
    double initial = std::nan("");
    for (const char* name : {series::kStepLoss, series::kEpochTrainLoss}) {
      const Series* first = h->find(name);
      if (first && !first->values().points().empty()) {
        initial = first->values().points().front().y;
        break;
      }
    }
    if (std::isfinite(initial) && best_value_ > kNoBestFactor * initial) best_epoch_.reset();
  }
  const bool show = best_epoch_.has_value();
  best_line_->setVisible(show);
  best_label_->setVisible(show);
  if (!show) return;
  // A new validation minimum after an onset clears it: the onset is the best epoch, so an
  // onset before the best is stale ("overfitting since 18" beside "best: epoch 29").
  const auto stale = [this](const Marker& m) {
    return m.kind == EventKind::Overfitting && m.value < static_cast<double>(*best_epoch_);
  };
  if (std::any_of(markers_.begin(), markers_.end(), stale)) {
    markers_.erase(std::remove_if(markers_.begin(), markers_.end(), stale), markers_.end());
    rebuildMarkerItems();
  }
  best_line_->point1->setCoords(best_step_, 0);
  best_line_->point2->setCoords(best_step_, 1);
  best_label_->position->setCoords(best_step_, 0.02);
  best_label_->setProperty(kHomeY, 0.02);
  best_label_->setText(
      Tr::tr("best: epoch %1 (%2)").arg(*best_epoch_).arg(EventText::number(best_value_)));
}

void LossPlot::alignLabels() {
  // The teaching banner wrapped to the plot's width as drawn now (a resize, presentation mode).
  if (mistakes_banner_) {
    const QString wrapped = wrappedBanner();
    if (wrapped != mistakes_banner_->text()) mistakes_banner_->setText(wrapped);
  }
  // A label stands right of its line in the left part of the plot, left of it further right,
  // so it is never cut by the plot's edge; when another marker's line would run through it
  // there, it takes the other side (the best epoch and the overfitting onset are often close).
  const QCPRange r = xAxis->range();
  if (r.size() <= 0) return;
  QVector<double> lines;
  for (int i = 0; i < itemCount(); ++i)
    if (auto* l = qobject_cast<QCPItemStraightLine*>(item(i)); l && l->visible())
      lines.append(xAxis->coordToPixel(l->point1->coords().x()));
  const double left_edge = axisRect()->left(), right_edge = axisRect()->right();
  for (int i = 0; i < itemCount(); ++i) {
    auto* t = qobject_cast<QCPItemText*>(item(i));
    if (!t) continue;
    // The text as the plot's code set it; a label that fits neither side of its line (a narrow
    // plot, large presentation fonts) is broken into two lines at the space nearest its middle.
    if (t->text() != t->property("trainscopeShownText").toString())
      t->setProperty("trainscopeFullText", t->text());
    const QString full = t->property("trainscopeFullText").toString();
    const double at = t->position->coords().x();
    const double x = xAxis->coordToPixel(at);
    double w = 0;
    auto measure = [&](const QString& text) {
      double widest = 0;
      for (const QString& line : text.split(QLatin1Char('\n')))
        widest = std::max(widest, QFontMetricsF(t->font()).horizontalAdvance(line));
      w = widest + t->padding().left() + t->padding().right();
    };
    auto blocked = [&](bool right_aligned) {
      const double lo = right_aligned ? x - w : x, hi = lo + w;
      if (lo < left_edge - 1 || hi > right_edge + 1) return true;
      for (double line : lines)
        if (std::abs(line - x) > 0.5 && line > lo && line < hi) return true;
      return false;
    };
    QString text = full;
    measure(text);
    if (blocked(false) && blocked(true)) {
      int cut = -1;
      for (int k = 0; k < full.size(); ++k)
        if (full[k] == QLatin1Char(' ') &&
            (cut < 0 || std::abs(k - full.size() / 2) < std::abs(cut - full.size() / 2)))
          cut = k;
      if (cut > 0) {
        text[cut] = QLatin1Char('\n');
        measure(text);
      }
    }
    if (t->text() != text) t->setText(text);
    t->setProperty("trainscopeShownText", text);
    bool right = (at - r.lower) / r.size() > 0.5;
    if (blocked(right) && !blocked(!right)) right = !right;
    t->setPositionAlignment((right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
  }
  // Labels stand at their own heights (a fraction of the plot's height, kHomeY); in a short
  // plot two close labels would still overlap: a label that meets one above it moves down
  // below it.
  const QRectF area = axisRect()->rect();
  if (area.height() <= 0) return;
  std::vector<std::pair<double, QCPItemText*>> texts;
  for (int i = 0; i < itemCount(); ++i)
    if (auto* t = qobject_cast<QCPItemText*>(item(i)); t && t->visible())
      texts.emplace_back(t->property(kHomeY).toDouble(), t);
  std::stable_sort(texts.begin(), texts.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<QRectF> placed;
  for (auto& [home, t] : texts) {
    // The text's size as QCPItemText draws it (a Chinese text may be taller than the font).
    const QSizeF text =
        QFontMetricsF(t->font())
            .boundingRect(QRectF(), Qt::TextDontClip | t->textAlignment(), t->text())
            .size();
    const double w = text.width() + t->padding().left() + t->padding().right();
    const double h = text.height() + t->padding().top() + t->padding().bottom();
    const double x = xAxis->coordToPixel(t->position->coords().x());
    QRectF rect(t->positionAlignment() & Qt::AlignRight ? x - w : x,
                area.top() + home * area.height(), w, h);
    for (bool moved = true; moved;) {
      moved = false;
      for (const QRectF& other : placed)
        if (rect.intersects(other)) {
          rect.moveTop(other.bottom() + 1);
          moved = true;
        }
    }
    placed.push_back(rect);
    t->position->setCoords(t->position->coords().x(), (rect.top() - area.top()) / area.height());
  }
}

void LossPlot::addEvent(const Event& event, double stepsPerEpoch) {
  double x = static_cast<double>(event.step);
  if (event.kind == EventKind::Overfitting && event.value) {
    x = *event.value * stepsPerEpoch;  // the onset, not the epoch it was detected at
  } else if (event.kind == EventKind::ConfigChanged) {
    if (event.what != "optimizer.lr") return;
  } else if (event.kind != EventKind::EarlyStop) {
    return;
  }
  if (event.kind == EventKind::Overfitting) {
    // The detector reports again when the validation minimum moves: one onset, the latest.
    markers_.erase(std::remove_if(markers_.begin(), markers_.end(),
                                  [](const Marker& m) { return m.kind == EventKind::Overfitting; }),
                   markers_.end());
  }
  markers_.push_back({event.kind, x, event.value.value_or(0)});
  rebuildMarkerItems();
}

void LossPlot::setEarlyStopPreview(std::optional<qint64> epoch, double stepsPerEpoch) {
  if (epoch == preview_epoch_) return;
  preview_epoch_ = epoch;
  preview_step_ = epoch ? static_cast<double>(*epoch) * stepsPerEpoch : 0;
  rebuildMarkerItems();
}

void LossPlot::clearAnnotations() {
  markers_.clear();
  preview_epoch_.reset();
  rebuildMarkerItems();
}

void LossPlot::rebuildMarkerItems() {
  for (QCPAbstractItem* item : marker_items_) removeItem(item);
  marker_items_.clear();
  auto line = [this](double x, const QColor& color, Qt::PenStyle style, const QString& text,
                     double y) {
    auto* l = new QCPItemStraightLine(this);
    l->setPen(QPen(color, 1.5, style));
    l->point1->setCoords(x, 0);
    l->point2->setCoords(x, 1);
    auto* t = new QCPItemText(this);
    t->position->setTypeX(QCPItemPosition::ptPlotCoords);
    t->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    t->position->setCoords(x, y);
    t->setProperty(kHomeY, y);
    t->setColor(color.darker(130));
    t->setBrush(palette::kLabelBackground);
    t->setPadding(QMargins(2, 1, 2, 1));
    t->setText(text);
    marker_items_.push_back(l);
    marker_items_.push_back(t);
  };
  int lr_changes = 0;
  for (const Marker& m : markers_) {
    switch (m.kind) {
      case EventKind::Overfitting:
        line(m.step, kOnsetColor, Qt::DotLine, Tr::tr("overfitting →"), 0.10);
        break;
      case EventKind::EarlyStop:
        line(m.step, kStopColor, Qt::SolidLine, Tr::tr("early stop"), 0.18);
        break;
      default:
        line(m.step, kLrChangeColor, Qt::DashDotLine,
             Tr::tr("lr → %1").arg(EventText::number(m.value)), 0.26 + 0.08 * (lr_changes++ % 3));
        break;
    }
  }
  const bool stopped = std::any_of(markers_.begin(), markers_.end(),
                                   [](const Marker& m) { return m.kind == EventKind::EarlyStop; });
  if (preview_epoch_ && !stopped) {  // once it fired, the event's marker says it
    line(preview_step_, kStopColor, Qt::DashLine,
         Tr::tr("early stop at epoch %1 if no improvement").arg(*preview_epoch_), 0.18);
  }
  alignLabels();
  replot(QCustomPlot::rpQueuedReplot);
}

void LossPlot::retranslate() {
  LivePlot::retranslate();
  xAxis->setLabel(Tr::tr("Step"));
  yAxis->setLabel(Tr::tr("Loss"));
  // Short names: the plot is narrow next to the side views, and its axis says "Loss".
  graphFor(series::kStepLoss)->setName(Tr::tr("Per step"));
  graphFor(series::kEpochTrainLoss)->setName(Tr::tr("Training loss (epoch)"));
  // Each dashed curve of the other run has its own entry (its training curve read as
  // this run's per-step loss), short so that two columns still fit at 1.5x (the bar above the
  // plot names the run: ghostDescription).
  const QString other = ghost_chosen_ ? Tr::tr("Chosen run") : Tr::tr("Previous run");
  graphFor(runs::kPrevious, series::kEpochValLoss)
      ->setName(Tr::tr("%1: validation").arg(other));
  graphFor(runs::kPrevious, series::kEpochTrainLoss)->setName(Tr::tr("%1: training").arg(other));
  smoothed_->setName(Tr::tr("Smoothed"));
  graphFor(series::kEpochValLoss)->setName(Tr::tr("Validation loss (epoch)"));
  if (best_epoch_) updateBest();
  rebuildMarkerItems();
  if (mistakes_banner_) mistakes_banner_->setText(wrappedBanner());
  emit ghostChanged();
}

void LossPlot::setMistakes(const std::vector<std::string>& names) {
  mistakes_ = names;
  if (names.empty()) {
    if (mistakes_banner_) {
      plotLayout()->remove(mistakes_banner_);  // deletes it
      plotLayout()->simplify();
      mistakes_banner_ = nullptr;
    }
  } else {
    if (!mistakes_banner_) {
      plotLayout()->insertRow(0);
      mistakes_banner_ = new QCPTextElement(this);
      mistakes_banner_->setObjectName(QStringLiteral("lossMistakesBanner"));
      mistakes_banner_->setTextColor(palette::kMistakeText);
      QFont f = font();
      f.setBold(true);
      mistakes_banner_->setFont(f);
      plotLayout()->addElement(0, 0, mistakes_banner_);
    }
    mistakes_banner_->setText(wrappedBanner());
  }
  replot(QCustomPlot::rpQueuedReplot);
}

QString LossPlot::wrappedBanner() const {
  // Broken after a separator wherever the next part would not fit the plot's width (a
  // QCPTextElement does not wrap; at 1024x768 the loss plot is about 360 px wide).
  const QString text = EventText::mistakesBanner(mistakes_);
  const QFontMetrics fm(mistakes_banner_ ? mistakes_banner_->font() : font());
  // The font as drawn: in presentation mode applyPresentation has scaled it by then (this runs
  // before each replot, after it), so a 1.5x banner is not cut at both ends.
  const int avail = std::max(60, (axisRect()->width() > 50 ? axisRect()->width() : width()) - 8);
  if (fm.horizontalAdvance(text) <= avail) return text;
  QStringList lines{QString()};
  static const QRegularExpression parts(QStringLiteral("(?<=[:：,，])\\s*"));
  QStringList pieces;
  for (const QString& part : text.split(parts, Qt::SkipEmptyParts)) {
    if (fm.horizontalAdvance(part) <= avail || !part.contains(QLatin1Char(' '))) {
      pieces << part;
      continue;
    }
    // A part wider than the plot by itself: broken at its spaces too.
    QString line;
    for (const QString& word : part.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
      const QString joined = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
      if (!line.isEmpty() && fm.horizontalAdvance(joined) > avail) {
        pieces << line;
        line = word;
      } else {
        line = joined;
      }
    }
    if (!line.isEmpty()) pieces << line;
  }
  for (const QString& part : pieces) {
    const bool wide = lines.back().endsWith(QChar(0xFF0C)) || lines.back().endsWith(QChar(0xFF1A));
    const QString joined = lines.back().isEmpty() ? part
                           : wide                 ? lines.back() + part  // after ，or ：
                                                  : lines.back() + QLatin1Char(' ') + part;
    if (!lines.back().isEmpty() && fm.horizontalAdvance(joined) > avail)
      lines << part;
    else
      lines.back() = joined;
  }
  return lines.join(QLatin1Char('\n'));
}

QString LossPlot::mistakesBanner() const {
  return mistakes_banner_ ? mistakes_banner_->text() : QString();
}

QString LossPlot::ghostDescription() const {
  const QString changes = ghost_label_.isEmpty() ? Tr::tr("same settings") : ghost_label_;
  if (ghost_chosen_) return Tr::tr("Dashed: the chosen run %1, %2").arg(ghost_name_, changes);
  return ghost_name_.isEmpty()
             ? Tr::tr("Dashed: the previous run, %1").arg(changes)
             : Tr::tr("Dashed: the previous run (%1), %2").arg(ghost_name_, changes);
}

void LossPlot::setGhostChanges(const std::vector<ConfigChange>& changes, const QString& name,
                               bool chosen) {
  ghost_name_ = name;
  ghost_chosen_ = chosen;
  QStringList parts;
  for (const ConfigChange& c : changes) {
    if (parts.size() == 3) {
      parts.back() += QStringLiteral(", …");
      break;
    }
    const QString key = QString::fromStdString(c.key).section(QLatin1Char('.'), -1);
    parts << QStringLiteral("%1 %2 → %3")
                 .arg(key, QString::fromStdString(c.before), QString::fromStdString(c.after));
  }
  ghost_label_ = parts.join(QStringLiteral(", "));
  retranslate();
}

void LossPlot::sync() {
  updateSmoothed();
  updateBest();
  LivePlot::sync();
  alignLabels();
  const bool ghost = pointCount(runs::kPrevious, series::kEpochValLoss) +
                         pointCount(runs::kPrevious, series::kEpochTrainLoss) >
                     0;
  if (ghost != ghost_shown_) {
    ghost_shown_ = ghost;
    for (const char* name : {series::kEpochTrainLoss, series::kEpochValLoss}) {
      QCPGraph* g = graphFor(runs::kPrevious, name);
      if (ghost) {
        g->addToLegend();  // last: after the current run's curves
      } else {
        g->removeFromLegend();
      }
    }
    emit ghostChanged();
  }
}

}  // namespace trainscope
