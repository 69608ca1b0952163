#include "gui/views/class_curves.h"

#include <QEvent>
#include <QHelpEvent>
#include <QToolTip>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "gui/plots/palette.h"
#include "gui/plots/plot_style.h"
#include "gui/tr.h"
#include "qcustomplot.h"

namespace trainscope {
namespace {

QString metricText(double v) { return QString::number(v, 'f', 3); }
QString metricText(const std::optional<double>& v) {
  return v ? metricText(*v) : QStringLiteral("–");
}

/// `page`'s column layout with a word-wrapped caption at its top (the caption in `caption`).
QVBoxLayout* captionedPage(QWidget* page, QLabel*& caption) {
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(1);
  caption = new QLabel(page);
  caption->setWordWrap(true);
  caption->setContentsMargins(4, 0, 4, 0);
  layout->addWidget(caption);
  return layout;
}

}  // namespace

ClassTable::ClassTable(QWidget* parent) : QWidget(parent) {
  QVBoxLayout* layout = captionedPage(this, caption_);
  table_ = new QTableWidget(this);
  table_->setObjectName(QStringLiteral("classTable"));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->setMinimumHeight(40);
  layout->addWidget(table_, 1);
  retranslate();
}

void ClassTable::set(const std::vector<ClassReport>& reports, const QStringList& names) {
  reports_ = reports;
  names_ = names;
  // Hidden (another page, a run at full speed): filled when shown (a table's layout each
  // epoch would cost the GUI thread).
  stale_ = !isVisible();
  if (!stale_) retranslate();
}

void ClassTable::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (stale_) {
    stale_ = false;
    retranslate();
  }
}

void ClassTable::retranslate() {
  caption_->setText(
      Tr::tr("Per class against the rest: precision (of the samples predicted as "
             "the class, the share that is right), recall (of the class's samples, "
             "the share found), F1 (their harmonic mean), AP (the area under the "
             "precision-recall curve) and ROC AUC (the chance that a sample of the "
             "class scores higher than one of another class; 0.5 is guessing)."));
  const QStringList headers{Tr::tr("Class"),     Tr::tr("Samples"), Tr::tr("Predicted"),
                            Tr::tr("Precision"), Tr::tr("Recall"),  Tr::tr("F1"),
                            Tr::tr("AP"),        Tr::tr("ROC AUC")};
  table_->clear();
  table_->setColumnCount(static_cast<int>(headers.size()));
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(static_cast<int>(reports_.size()));
  for (int i = 0; i < static_cast<int>(reports_.size()); ++i) {
    const ClassReport& r = reports_[static_cast<std::size_t>(i)];
    const QString cells[] = {names_.value(i, QString::number(i)),
                             QString::number(r.support),
                             QString::number(r.predicted),
                             metricText(r.precision),
                             metricText(r.recall),
                             metricText(r.f1),
                             metricText(r.average_precision),
                             metricText(r.roc_auc)};
    for (int j = 0; j < static_cast<int>(headers.size()); ++j) {
      auto* item = new QTableWidgetItem(cells[j]);
      if (j > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      table_->setItem(i, j, item);
    }
  }
}

void ClassTable::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

ClassCurvesPlot::ClassCurvesPlot(Kind kind, QWidget* parent) : QWidget(parent), kind_(kind) {
  QVBoxLayout* layout = captionedPage(this, caption_);
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(kind == Kind::Roc ? QStringLiteral("rocCurves")
                                         : QStringLiteral("prCurves"));
  followPresentation(plot_);
  plot_->setMinimumHeight(80);
  plot_->xAxis->setRange(0, 1);
  plot_->yAxis->setRange(0, 1.02);
  plot_->legend->setVisible(true);
  plot_->installEventFilter(this);  // the legend only where it fits; tooltips name the curve
  plot_->axisRect()->insetLayout()->setInsetAlignment(
      0, kind == Kind::Roc ? Qt::AlignBottom | Qt::AlignRight : Qt::AlignBottom | Qt::AlignLeft);
  layout->addWidget(plot_, 1);
  retranslate();
}

void ClassCurvesPlot::set(const std::vector<ClassReport>& reports, const QStringList& names,
                          bool thinned) {
  reports_ = reports;
  names_ = names;
  thinned_ = thinned;
  stale_ = !isVisible();  // hidden: drawn when shown
  if (!stale_) retranslate();  // the caption says whether the curves were thinned; draws
}

void ClassCurvesPlot::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (stale_) {
    stale_ = false;
    retranslate();
  }
}

int ClassCurvesPlot::curveCount() const {
  int n = 0;
  for (int i = 0; i < plot_->plottableCount(); ++i)
    if (qobject_cast<QCPCurve*>(plot_->plottable(i)) &&
        plot_->plottable(i)->name() != QLatin1String("chance"))
      ++n;
  return n;
}

void ClassCurvesPlot::draw() {
  plot_->clearPlottables();
  const bool roc = kind_ == Kind::Roc;
  if (roc) {  // guessing: the diagonal
    auto* chance = new QCPCurve(plot_->xAxis, plot_->yAxis);
    chance->setName(QStringLiteral("chance"));
    chance->setData(QVector<double>{0, 1}, QVector<double>{0, 1});
    chance->setPen(QPen(palette::kGuide, 1.2, Qt::DashLine));
    chance->removeFromLegend();
  }
  // Two classes: class 1 against class 0 says it all (class 0's curve is the same split).
  const std::size_t first = reports_.size() == 2 ? 1 : 0;
  const double width = reports_.size() > 4 ? 1.6 : 2.2;
  for (std::size_t c = first; c < reports_.size(); ++c) {
    const ClassReport& r = reports_[c];
    const std::vector<double>& x = roc ? r.roc.fpr : r.pr.recall;
    const std::vector<double>& y = roc ? r.roc.tpr : r.pr.precision;
    auto* curve = new QCPCurve(plot_->xAxis, plot_->yAxis);
    QVector<double> t(static_cast<int>(x.size())), xs(x.begin(), x.end()), ys(y.begin(), y.end());
    for (int i = 0; i < t.size(); ++i) t[i] = i;
    curve->setData(t, xs, ys, true);
    curve->setPen(QPen(palette::tab10(static_cast<int>(c)), width));
    const QString name = names_.value(static_cast<int>(c), QString::number(c));
    const std::optional<double>& area = roc ? r.roc_auc : r.average_precision;
    curve->setName(roc ? Tr::tr("%1 (AUC %2)").arg(name, metricText(area))
                       : Tr::tr("%1 (AP %2)").arg(name, metricText(area)));
  }
  QFont legend = plot_->font();
  legend.setPointSizeF(std::max(6.0, legend.pointSizeF() * (reports_.size() > 6 ? 0.75 : 0.9)));
  plot_->legend->setFont(legend);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ClassCurvesPlot::retranslate() {
  const bool roc = kind_ == Kind::Roc;
  const QString full =
      roc ? Tr::tr("ROC curves: for each class against the rest, the share of its "
                   "samples found (true positive rate) against the share of other "
                   "samples wrongly taken for it (false positive rate) as the "
                   "threshold on its probability falls; the dashed line is guessing.")
          : Tr::tr("Precision-recall curves: for each class against the rest, "
                   "precision against recall as the threshold on its probability "
                   "falls; a curve near the top right is a class the model separates "
                   "well.");
  QString text = roc ? Tr::tr("Each class against the rest; the dashed line is guessing.")
                     : Tr::tr("Each class against the rest; near the top right is good.");
  if (thinned_) text += QLatin1Char(' ') + Tr::tr("(Curves thinned to 1,000 points.)");
  caption_->setText(text);
  caption_->setToolTip(full);
  plot_->setToolTip(QString());
  plot_->xAxis->setLabel(roc ? Tr::tr("false positive rate") : Tr::tr("recall"));
  plot_->yAxis->setLabel(roc ? Tr::tr("true positive rate") : Tr::tr("precision"));
  if (!reports_.empty()) draw();
  else plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString ClassCurvesPlot::curveAt(const QPointF& pos) const {
  double best = 64;  // 8 px, squared
  QString found;
  for (int i = 0; i < plot_->plottableCount(); ++i) {
    auto* curve = qobject_cast<QCPCurve*>(plot_->plottable(i));
    if (!curve || curve->name() == QLatin1String("chance")) continue;
    for (const QCPCurveData& d : *curve->data()) {
      const double dx = plot_->xAxis->coordToPixel(d.key) - pos.x();
      const double dy = plot_->yAxis->coordToPixel(d.value) - pos.y();
      if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, found = curve->name();
    }
  }
  return found;
}

bool ClassCurvesPlot::eventFilter(QObject* watched, QEvent* e) {
  if (watched == plot_ && e->type() == QEvent::Resize) {
    const bool fits = plot_->height() >= kLegendMinHeight;
    if (plot_->legend->visible() != fits) {
      plot_->legend->setVisible(fits);
      plot_->replot(QCustomPlot::rpQueuedReplot);
    }
  } else if (watched == plot_ && e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString name = curveAt(help->pos());
    if (name.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), name, plot_);
    return true;
  }
  return QWidget::eventFilter(watched, e);
}

void ClassCurvesPlot::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

}  // namespace trainscope
