#include "gui/views/distributions_view.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

#include "gui/event_text.h"
#include "gui/plots/palette.h"
#include "gui/plots/plot_style.h"
#include "gui/tr.h"
#include "qcustomplot.h"

namespace trainscope {

namespace {

/// Band i is percentiles [kBandLow[i], kBandHigh[i]], outermost first (TensorBoard's bands).
constexpr int kBandLow[4] = {kP0, kP7, kP16, kP31};
constexpr int kBandHigh[4] = {kP100, kP93, kP84, kP69};

/// Every other element of `v` from the first on (a series at its reading limit).
template <class T>
void keepEveryOther(std::vector<T>& v) {
  std::size_t j = 0;
  for (std::size_t i = 0; i < v.size(); i += 2) v[j++] = v[i];
  v.resize(j);
}

}  // namespace

DistributionsView::DistributionsView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("distributionsView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  auto* row = new QHBoxLayout;
  row->setContentsMargins(4, 0, 4, 0);
  what_ = new QComboBox(this);
  what_->setObjectName(QStringLiteral("distributionsWhat"));
  what_->addItems({QString(), QString(), QString()});
  name_ = new QComboBox(this);
  name_->setObjectName(QStringLiteral("distributionsName"));
  name_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  row->addWidget(what_);
  row->addWidget(name_);
  row->addStretch(1);
  layout->addLayout(row);
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("distributionsPlot"));
  followPresentation(plot_);
  plot_->installEventFilter(this);
  for (int b = 0; b < 4; ++b) {
    QCPGraph* low = plot_->addGraph();
    QCPGraph* high = plot_->addGraph();
    low->setPen(Qt::NoPen);
    high->setPen(Qt::NoPen);
    QColor fill = palette::kTrain;
    fill.setAlpha(45 + 35 * b);
    high->setBrush(fill);
    high->setChannelFillGraph(low);
    bands_[2 * b] = low;
    bands_[2 * b + 1] = high;
  }
  median_ = plot_->addGraph();
  median_->setPen(QPen(palette::kTrain.darker(150), 1.5));
  // Each reading a dot on the median: one reading is visible too.
  median_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
  layout->addWidget(plot_, 1);
  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("distributionsCaption"));
  caption_->setWordWrap(true);
  caption_->setContentsMargins(4, 0, 4, 0);
  layout->addWidget(caption_);
  connect(what_, &QComboBox::currentIndexChanged, this, [this] {
    fillNames();
    retranslate();  // the y axis title
    draw();
  });
  connect(name_, &QComboBox::currentIndexChanged, this, [this] { draw(); });
  retranslate();
}

void DistributionsView::setOff(bool off) {
  off_ = off;
  caption_->setText(caption());
}

void DistributionsView::clear() {
  series_.clear();
  for (auto& n : names_) n.clear();
  fillNames();
  draw();
}

void DistributionsView::add(What what, const std::vector<TensorDistribution>& tensors,
                            int64_t step, int64_t samples) {
  std::vector<std::string>& names = names_[static_cast<int>(what)];
  for (const TensorDistribution& d : tensors) {
    if (std::find(names.begin(), names.end(), d.name) == names.end()) names.push_back(d.name);
    Series& s = series_[{static_cast<int>(what), d.name}];
    s.steps.push_back(static_cast<double>(step));
    s.percentiles.push_back(d.percentiles);
    s.dead.push_back(d.dead_share);
    s.samples = samples;
    if (static_cast<int>(s.steps.size()) > kMaxReadings) {
      keepEveryOther(s.steps);
      keepEveryOther(s.percentiles);
      keepEveryOther(s.dead);
    }
  }
}

void DistributionsView::addRecord(const DistributionRecord& r) {
  const std::size_t before = names_[0].size() + names_[1].size() + names_[2].size();
  add(What::Weights, r.weights, r.step, 0);
  add(What::Gradients, r.gradients, r.step, 0);
  add(What::Activations, r.activations, r.step, r.activation_samples);
  activation_names_.clear();
  for (const TensorDistribution& d : r.activations) activation_names_.push_back(d.name);
  if (names_[0].size() + names_[1].size() + names_[2].size() != before) fillNames();
  stale_ = !isVisible();  // hidden (another tab, a run at full speed): drawn when shown
  if (!stale_) draw();
}

void DistributionsView::choose(What what, const QString& name) {
  what_->setCurrentIndex(static_cast<int>(what));
  const int i = name_->findText(name);
  if (i >= 0) name_->setCurrentIndex(i);
  draw();  // also when hidden: the caller looks at it now
}

DistributionsView::What DistributionsView::what() const {
  return static_cast<What>(std::max(0, what_->currentIndex()));
}

void DistributionsView::fillNames() {
  const QString was = name_->currentText();
  const QSignalBlocker block(name_);
  name_->clear();
  for (const std::string& n : names_[static_cast<int>(what())])
    name_->addItem(QString::fromStdString(n));
  const int i = name_->findText(was);
  name_->setCurrentIndex(i >= 0 ? i : 0);
}

const DistributionsView::Series* DistributionsView::chosen() const {
  const auto it = series_.find({static_cast<int>(what()), name_->currentText().toStdString()});
  return it == series_.end() ? nullptr : &it->second;
}

int DistributionsView::readings() const {
  const Series* s = chosen();
  return s ? static_cast<int>(s->steps.size()) : 0;
}

const std::vector<double>& DistributionsView::steps() const {
  static const std::vector<double> none;
  const Series* s = chosen();
  return s ? s->steps : none;
}

const std::vector<std::array<double, 11>>& DistributionsView::percentiles() const {
  static const std::vector<std::array<double, 11>> none;
  const Series* s = chosen();
  return s ? s->percentiles : none;
}

QString DistributionsView::deadSummary() const {
  QStringList parts;
  for (const std::string& name : activation_names_) {
    const auto it = series_.find({static_cast<int>(What::Activations), name});
    if (it == series_.end() || it->second.dead.empty() || std::isnan(it->second.dead.back()))
      continue;
    parts << Tr::tr("%1: %2%").arg(QString::fromStdString(name),
                                   QString::number(100.0 * it->second.dead.back(), 'f', 0));
  }
  return parts.join(QStringLiteral(", "));
}

QString DistributionsView::caption() const {
  const Series* s = chosen();
  if (!s || s->steps.empty()) {
    if (off_ && names_[0].empty())
      return Tr::tr("No distributions for this run: training.distributions_every is 0 (off).");
    return names_[0].empty()
               ? Tr::tr("Each layer's weights, gradients and activations appear here while a run "
                        "trains (every training.distributions_every steps; by default at step 10, every 500 "
                        "steps and at the end).")
               : QString();
  }
  const std::array<double, 11>& p = s->percentiles.back();
  const QString step = QString::number(static_cast<qint64>(s->steps.back()));
  const QString name = name_->currentText();
  const QString q1 = EventText::number(p[kP25]), q3 = EventText::number(p[kP75]);
  const QString lo = EventText::number(p[kP0]), hi = EventText::number(p[kP100]);
  QString text;
  switch (what()) {
    case What::Weights:
      text = Tr::tr("Step %1: half of the weights of %2 lie between %3 and %4; all of them "
                    "between %5 and %6.").arg(step, name, q1, q3, lo, hi);
      break;
    case What::Gradients:
      text = Tr::tr("Step %1: half of the gradients of %2 lie between %3 and %4; all of them "
                    "between %5 and %6.").arg(step, name, q1, q3, lo, hi);
      break;
    case What::Activations:
      text = Tr::tr("Step %1: half of the outputs of layer %2 on %3 validation samples lie "
                    "between %4 and %5; all of them between %6 and %7.")
                 .arg(step, name, QString::number(s->samples), q1, q3, lo, hi);
      if (!s->dead.empty() && !std::isnan(s->dead.back()))
        text += QLatin1Char(' ') +
                Tr::tr("%1% of its units are dead: 0 for every one of those samples.")
                    .arg(QString::number(100.0 * s->dead.back(), 'f', 0));
      break;
  }
  // Dead units whatever is shown: what a lecturer points at first.
  const QString dead = deadSummary();
  if (!dead.isEmpty()) text += QLatin1Char('\n') + Tr::tr("Dead ReLU units per layer: %1").arg(dead);
  return text;
}

void DistributionsView::draw() {
  stale_ = false;
  const Series* s = chosen();
  QVector<double> x;
  std::array<QVector<double>, 11> y;
  if (s) {
    x = QVector<double>(s->steps.begin(), s->steps.end());
    for (const auto& p : s->percentiles)
      for (int i = 0; i < 11; ++i) y[static_cast<std::size_t>(i)].push_back(p[static_cast<std::size_t>(i)]);
  }
  for (int b = 0; b < 4; ++b) {
    bands_[2 * b]->setData(x, y[kBandLow[b]], true);
    bands_[2 * b + 1]->setData(x, y[kBandHigh[b]], true);
  }
  median_->setData(x, y[kP50], true);
  plot_->rescaleAxes();
  if (x.size() == 1) plot_->xAxis->setRange(x[0] - 5, x[0] + 5);
  if (!y[kP0].isEmpty() && !(plot_->yAxis->range().size() > 0))  // one value: a visible band
    plot_->yAxis->setRange(y[kP0][0] - 1, y[kP0][0] + 1);
  caption_->setText(caption());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void DistributionsView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (stale_) draw();
}

void DistributionsView::retranslate() {
  what_->setItemText(0, Tr::tr("Weights"));
  what_->setItemText(1, Tr::tr("Gradients"));
  what_->setItemText(2, Tr::tr("Activations"));
  plot_->xAxis->setLabel(Tr::tr("Step"));
  plot_->yAxis->setLabel(what() == What::Weights     ? Tr::tr("Weight")
                         : what() == What::Gradients ? Tr::tr("Gradient")
                                                     : Tr::tr("Output"));
  const QString bands = Tr::tr("Bands, from light to dark: all values, 7-93%, 16-84% and "
                               "31-69% of them; the line is the median.");
  plot_->setToolTip(bands);
  caption_->setToolTip(bands);
  caption_->setText(caption());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool DistributionsView::eventFilter(QObject* watched, QEvent* e) {
  if (watched == plot_ && e->type() == QEvent::Resize) fitTickCounts(plot_);
  return QWidget::eventFilter(watched, e);
}

void DistributionsView::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(e);
}

}  // namespace trainscope
