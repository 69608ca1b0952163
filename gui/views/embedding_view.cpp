#include "gui/views/embedding_view.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/train/probes/tsne.h"
#include "gui/event_text.h"
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
  auto* row = new QHBoxLayout;
  row->setContentsMargins(4, 0, 4, 0);
  projection_ = new QComboBox(this);
  projection_->setObjectName(QStringLiteral("embeddingProjection"));
  projection_->addItems({QString(), QString()});
  cancel_ = new QPushButton(this);
  cancel_->setObjectName(QStringLiteral("embeddingCancel"));
  cancel_->setVisible(false);
  row->addWidget(projection_);
  row->addWidget(cancel_);
  row->addStretch(1);
  layout->addLayout(row);
  connect(projection_, &QComboBox::currentIndexChanged, this, [this](int i) { setTsne(i == 1); });
  connect(cancel_, &QPushButton::clicked, this, &EmbeddingView::cancelTsne);
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

EmbeddingView::~EmbeddingView() {
  if (cancel_flag_) cancel_flag_->store(true);
  if (worker_.joinable()) worker_.join();  // stops at its next iteration (milliseconds)
}

void EmbeddingView::setTsne(bool on) {
  if (projection_->currentIndex() != (on ? 1 : 0)) {
    projection_->setCurrentIndex(on ? 1 : 0);  // comes back here
    return;
  }
  if (!on) cancelTsne();
  else if (embedding_ && tsne_epoch_ != embedding_->epoch && !tsneRunning()) startTsne();
  if (embedding_) draw();
  else retranslate();
}

void EmbeddingView::cancelTsne() {
  if (cancel_flag_) cancel_flag_->store(true);
}

void EmbeddingView::startTsne() {
  const EmbeddingRecord& e = *embedding_;
  const auto n = static_cast<int64_t>(e.x.size());
  const int64_t dims = e.reduced_dims;
  if (n < 4 || dims < 2 || static_cast<int64_t>(e.reduced.size()) != n * dims) return;
  // Every k-th point (the points are in split order, classes mixed): the class shares stay.
  const int64_t keep = std::min(n, TsneOptions::kMaxPoints);
  std::vector<std::size_t> index;
  std::vector<float> x;
  for (int64_t j = 0; j < keep; ++j) {
    const auto i = static_cast<std::size_t>(j * n / keep);
    index.push_back(i);
    x.insert(x.end(), e.reduced.begin() + static_cast<std::ptrdiff_t>(i * static_cast<std::size_t>(dims)),
             e.reduced.begin() + static_cast<std::ptrdiff_t>((i + 1) * static_cast<std::size_t>(dims)));
  }
  cancel_flag_ = std::make_shared<std::atomic<bool>>(false);
  tsne_progress_ = 0;
  cancel_->setVisible(true);
  const int64_t epoch = e.epoch;
  worker_ = std::thread([this, flag = cancel_flag_, index = std::move(index), x = std::move(x), keep, dims,
                         epoch]() mutable {
    std::vector<double> init = tsnePcaInit(x, keep, dims);
    TsneResult r = tsne(x, keep, dims, std::move(init), TsneOptions{}, flag.get(),
                        [this, flag](int iteration, double) {
                          if (flag->load()) return;
                          QMetaObject::invokeMethod(this, [this, iteration] {
                            tsne_progress_ = iteration;
                            retranslate();
                          }, Qt::QueuedConnection);
                        });
    QMetaObject::invokeMethod(this, [this, epoch, index = std::move(index), y = std::move(r.y),
                                     kl = r.kl_divergence, cancelled = r.cancelled]() mutable {
      tsneDone(epoch, std::move(index), std::move(y), kl, cancelled);
    }, Qt::QueuedConnection);
  });
  retranslate();
}

void EmbeddingView::tsneDone(int64_t epoch, std::vector<std::size_t> index, std::vector<double> y,
                             double kl, bool cancelled) {
  if (worker_.joinable()) worker_.join();
  cancel_->setVisible(false);
  if (!cancelled) {
    tsne_epoch_ = epoch;
    tsne_index_ = std::move(index);
    tsne_y_ = std::move(y);
    tsne_kl_ = kl;
  }
  const bool tsne = projection_->currentIndex() == 1;
  // A newer epoch came while it ran: its layout next.
  if (tsne && !cancelled && embedding_ && embedding_->epoch != tsne_epoch_) startTsne();
  if (tsne && cancelled) {
    const QSignalBlocker block(projection_);
    projection_->setCurrentIndex(0);
  }
  if (embedding_ && isVisible()) draw();
  else retranslate();
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
  cancelTsne();
  tsne_epoch_ = 0;
  tsne_index_.clear();
  tsne_y_.clear();
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
  if (projection_->currentIndex() == 1 && !tsneRunning() && tsne_epoch_ != e.epoch) startTsne();
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

void EmbeddingView::choosePoints() {
  const EmbeddingRecord& e = *embedding_;
  shown_.clear();
  shown_x_.clear();
  shown_y_.clear();
  if (projection_->currentIndex() == 1 && tsne_epoch_ > 0 && tsne_y_.size() == 2 * tsne_index_.size()) {
    for (std::size_t k = 0; k < tsne_index_.size(); ++k) {
      if (tsne_index_[k] >= e.label.size()) continue;  // an older run's layout
      shown_.push_back(tsne_index_[k]);
      shown_x_.push_back(static_cast<float>(tsne_y_[2 * k]));
      shown_y_.push_back(static_cast<float>(tsne_y_[2 * k + 1]));
    }
    return;
  }
  for (std::size_t i = 0; i < e.x.size() && i < e.y.size(); ++i) {
    shown_.push_back(i);
    shown_x_.push_back(e.x[i]);
    shown_y_.push_back(e.y[i]);
  }
}

void EmbeddingView::draw() {
  const EmbeddingRecord& e = *embedding_;
  choosePoints();
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
  for (std::size_t k = 0; k < shown_.size(); ++k) {
    const std::size_t i = shown_[k];
    if (i >= e.label.size()) continue;
    const auto c = static_cast<std::size_t>(e.label[i]);
    if (c >= data.size()) continue;
    // QCPGraph sorts by key; points of equal x keep their order (the tooltip uses shown_)
    const float x = shown_x_[k], y = shown_y_[k];
    data[c].push_back(QCPGraphData(x, y));
    xlo = std::min<double>(xlo, x), xhi = std::max<double>(xhi, x);
    ylo = std::min<double>(ylo, y), yhi = std::max<double>(yhi, y);
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
  projection_->setItemText(0, Tr::tr("PCA"));
  projection_->setItemText(1, Tr::tr("t-SNE"));
  projection_->setToolTip(Tr::tr("PCA: the two directions along which the points differ most "
                                 "(exact, computed every epoch). t-SNE: a map that keeps each "
                                 "point's near neighbours near; distances between clusters mean "
                                 "little (computed on request, up to 1,000 points)."));
  cancel_->setText(Tr::tr("Cancel"));
  const bool tsne = projection_->currentIndex() == 1;
  const bool tsne_shown = tsne && embedding_ && tsne_epoch_ > 0 && !shown_.empty();
  plot_->xAxis->setLabel(tsne_shown ? Tr::tr("t-SNE 1") : Tr::tr("PC 1"));  // short for short plots
  plot_->yAxis->setLabel(tsne_shown ? Tr::tr("t-SNE 2") : Tr::tr("PC 2"));
  const QString running =
      tsneRunning() ? Tr::tr("Computing t-SNE: iteration %1 of %2...").arg(tsne_progress_).arg(1000)
                    : QString();
  if (tsne && embedding_) {
    QString text = tsne_shown ? Tr::tr("Epoch %1: t-SNE of %2 validation samples (perplexity 30, KL "
                                       "divergence %3). Near neighbours stay near; the distances "
                                       "between clusters mean little.")
                                    .arg(tsne_epoch_)
                                    .arg(shown_.size())
                                    .arg(EventText::number(tsne_kl_))
                              : QString();
    if (!running.isEmpty()) text = text.isEmpty() ? running : text + QLatin1Char(' ') + running;
    caption_->setText(text);
    return;
  }
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
  for (std::size_t k = 0; k < shown_.size(); ++k) {
    const double dx = plot_->xAxis->coordToPixel(shown_x_[k]) - pos.x();
    const double dy = plot_->yAxis->coordToPixel(shown_y_[k]) - pos.y();
    if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, found = shown_[k];
  }
  if (found >= e.label.size() || found >= e.position.size()) return {};
  const int64_t sample =
      found < e.sample.size() && e.sample[found] >= 0 ? e.sample[found] : e.position[found];
  return Tr::tr("Sample %1: %2").arg(sample).arg(className(e.label[found]));
}

bool EmbeddingView::eventFilter(QObject* watched, QEvent* e) {
  if (watched == plot_ && e->type() == QEvent::Resize) {
    fitTickCounts(plot_);
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
