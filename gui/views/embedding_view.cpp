#include "gui/views/embedding_view.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "gui/plots/palette.h"
#include "gui/plots/plot_style.h"
#include "gui/tr.h"
#include "qcustomplot.h"

namespace trainscope {

EmbeddingView::EmbeddingView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("embeddingView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  caption_ = new QLabel(this);
  caption_->setWordWrap(true);
  caption_->setContentsMargins(4, 0, 4, 0);
  layout->addWidget(caption_);
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("embeddingPlot"));
  followPresentation(plot_);
  plot_->legend->setVisible(true);
  plot_->installEventFilter(this);
  layout->addWidget(plot_, 1);
  retranslate();
}

QString EmbeddingView::className(int64_t c) const {
  if (info_ && c >= 0 && c < static_cast<int64_t>(info_->data.class_names.size()))
    return QCoreApplication::translate(
        "TrainScope", info_->data.class_names[static_cast<std::size_t>(c)].c_str());
  return QString::number(c);
}

void EmbeddingView::setRunInfo(const RunInfo& info) {
  info_ = info;
  embedding_.reset();
  plot_->clearGraphs();
  graphs_.clear();
  plot_->replot(QCustomPlot::rpQueuedReplot);
  retranslate();
}

void EmbeddingView::setDetail(const ValidationDetail& detail) {
  if (detail.embedding.features > 0) setEmbedding(detail.embedding);
}

void EmbeddingView::setEmbedding(const EmbeddingRecord& e) {
  embedding_ = e;
  stale_ = !isVisible();  // hidden (another tab, a run at full speed): drawn when shown
  if (!stale_) draw();
}

void EmbeddingView::showEvent(QShowEvent* ev) {
  QWidget::showEvent(ev);
  if (stale_ && embedding_) {
    stale_ = false;
    draw();
  }
}

void EmbeddingView::draw() {
  const EmbeddingRecord& e = *embedding_;
  int64_t classes = 0;
  for (int64_t l : e.label) classes = std::max(classes, l + 1);
  if (info_)
    classes = std::max<int64_t>(classes, static_cast<int64_t>(info_->data.class_names.size()));
  if (static_cast<int64_t>(graphs_.size()) != classes) {
    plot_->clearGraphs();
    graphs_.clear();
    for (int64_t c = 0; c < classes; ++c) {
      QCPGraph* g = plot_->addGraph();
      g->setLineStyle(QCPGraph::lsNone);
      const QColor& col = palette::tab10(static_cast<int>(c));
      g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, col, palette::withAlpha(col, 160),
                                         e.x.size() > 2000 ? 3 : 5));
      g->setAdaptiveSampling(false);
      graphs_.push_back(g);
    }
  }
  std::vector<QVector<QCPGraphData>> data(graphs_.size());
  double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
  for (std::size_t i = 0; i < e.x.size() && i < e.y.size() && i < e.label.size(); ++i) {
    const auto c = static_cast<std::size_t>(e.label[i]);
    if (c >= data.size()) continue;
    // QCPGraph sorts by key; points of equal x keep their order (the tooltip uses e's arrays)
    data[c].push_back(QCPGraphData(e.x[i], e.y[i]));
    xlo = std::min<double>(xlo, e.x[i]), xhi = std::max<double>(xhi, e.x[i]);
    ylo = std::min<double>(ylo, e.y[i]), yhi = std::max<double>(yhi, e.y[i]);
  }
  for (std::size_t c = 0; c < graphs_.size(); ++c) {
    graphs_[c]->data()->set(data[c], false);
    graphs_[c]->setName(className(static_cast<int64_t>(c)));
  }
  if (std::isfinite(xlo) && std::isfinite(ylo)) {
    const double px = xhi > xlo ? 0.05 * (xhi - xlo) : 1, py = yhi > ylo ? 0.05 * (yhi - ylo) : 1;
    plot_->xAxis->setRange(xlo - px, xhi + px);
    plot_->yAxis->setRange(ylo - py, yhi + py);
  }
  QFont legend = plot_->font();
  legend.setPointSizeF(std::max(6.0, legend.pointSizeF() * (graphs_.size() > 6 ? 0.75 : 0.9)));
  plot_->legend->setFont(legend);
  plot_->replot(QCustomPlot::rpQueuedReplot);
  retranslate();
}

QString EmbeddingView::caption() const { return caption_->text(); }

void EmbeddingView::retranslate() {
  plot_->xAxis->setLabel(Tr::tr("PC 1"));  // principal components: short for short plots
  plot_->yAxis->setLabel(Tr::tr("PC 2"));
  if (!embedding_) {
    caption_->setText(
        Tr::tr("After each epoch of a classification run: the validation samples "
               "as the network sees them just before its last layer, flattened "
               "onto the two directions along which they differ most (PCA). "
               "Classes that separate here are easy for the last layer."));
    return;
  }
  const EmbeddingRecord& e = *embedding_;
  const double share =
      e.explained_variance_ratio.size() >= 2
          ? e.explained_variance_ratio[0] + e.explained_variance_ratio[1]
          : (e.explained_variance_ratio.empty() ? 0 : e.explained_variance_ratio[0]);
  caption_->setText(Tr::tr("Epoch %1: %2 validation samples, the %3 features before the last "
                           "layer on their two principal components (%4% of the variance).")
                        .arg(e.epoch)
                        .arg(e.x.size())
                        .arg(e.features)
                        .arg(100.0 * share, 0, 'f', 0));
  caption_->setToolTip(Tr::tr("Up to 5,000 validation samples, stratified by class, as the network "
                              "sees them just before its last layer, projected by PCA onto the two "
                              "directions along which they differ most. Hover a point for its "
                              "sample and class."));
}

QString EmbeddingView::pointText(const QPointF& pos) const {
  if (!embedding_) return {};
  const EmbeddingRecord& e = *embedding_;
  double best = 64;  // 8 px squared
  std::size_t found = e.x.size();
  for (std::size_t i = 0; i < e.x.size() && i < e.y.size(); ++i) {
    const double dx = plot_->xAxis->coordToPixel(e.x[i]) - pos.x();
    const double dy = plot_->yAxis->coordToPixel(e.y[i]) - pos.y();
    if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, found = i;
  }
  if (found == e.x.size()) return {};
  const int64_t sample =
      found < e.sample.size() && e.sample[found] >= 0 ? e.sample[found] : e.position[found];
  return Tr::tr("Sample %1: %2").arg(sample).arg(className(e.label[found]));
}

bool EmbeddingView::eventFilter(QObject* watched, QEvent* e) {
  if (watched == plot_ && e->type() == QEvent::Resize) {
    // Tick labels spaced as the live plots space them (2.5 lines apart): a short plot in the
    // bottom tabs gets fewer.
    const int spacing = std::max(35, QFontMetrics(plot_->yAxis->tickLabelFont()).height() * 5 / 2);
    plot_->yAxis->ticker()->setTickCount(std::clamp((plot_->height() - 60) / spacing, 1, 5));
    plot_->xAxis->ticker()->setTickCount(std::clamp((plot_->width() - 80) / 60, 1, 8));
    const bool fits = plot_->height() >= 300;  // else the legend hides the points
    if (plot_->legend->visible() != fits) {
      plot_->legend->setVisible(fits);
      plot_->replot(QCustomPlot::rpQueuedReplot);
    }
  } else if (watched == plot_ && e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = pointText(help->pos());
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, plot_);
    return true;
  }
  return QWidget::eventFilter(watched, e);
}

void EmbeddingView::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) {
    retranslate();
    if (embedding_ && !stale_) draw();  // class names
  }
  QWidget::changeEvent(e);
}

}  // namespace trainscope
