#include "gui/plots/plot_area.h"

#include <algorithm>
#include <QDataStream>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "gui/plots/training_plots.h"
#include "gui/tr.h"
#include "gui/widgets/hide_reasons.h"

namespace trainscope {

PlotArea::PlotArea(const RunHistory* history, QWidget* parent)
    : QWidget(parent), history_(history) {
  setObjectName(QStringLiteral("plotArea"));
  loss_plot_ = new LossPlot;
  grad_plot_ = new GradNormPlot;
  loss_view_ = new PlotView(loss_plot_, QStringLiteral("loss"));
  grad_view_ = new PlotView(grad_plot_, QStringLiteral("gradNorm"));
  views_ = {loss_view_, grad_view_};
  registerPlot(loss_plot_);
  registerPlot(grad_plot_);

  top_ = new QSplitter(Qt::Horizontal);
  top_->addWidget(loss_view_);
  side_tabs_ = new QTabWidget;
  side_tabs_->setObjectName(QStringLiteral("sideViewTabs"));
  side_tabs_->setDocumentMode(true);
  // Every tab in view, no scroll arrows: compact tabs, and the pane is never narrower than
  // its tab bar.
  side_tabs_->tabBar()->setUsesScrollButtons(false);
  side_tabs_->setStyleSheet(QStringLiteral("QTabBar::tab { padding: 3px 5px; }"));
  side_tabs_->hide();  // until a side view is added
  top_->addWidget(side_tabs_);
  top_->setStretchFactor(0, 3);
  top_->setStretchFactor(1, 2);
  top_->setChildrenCollapsible(false);

  bottom_tabs_ = new QTabWidget;
  bottom_tabs_->setObjectName(QStringLiteral("bottomViewTabs"));
  bottom_tabs_->setDocumentMode(true);
  bottom_tabs_->setTabBarAutoHide(true);  // the gradient-norm plot alone needs no tab bar
  // Compact tabs as the side views' (seven tabs fit a 1024 px projector in presentation mode).
  bottom_tabs_->setStyleSheet(QStringLiteral("QTabBar::tab { padding: 3px 5px; }"));
  bottom_tabs_->addTab(grad_view_, QString());
  tabs_.push_back({bottom_tabs_, grad_view_, [] { return Tr::tr("Grad norm", "tab"); },
                   QStringLiteral("gradient")});

  rows_ = new QSplitter(Qt::Vertical);
  rows_->addWidget(top_);
  rows_->addWidget(bottom_tabs_);
  rows_->setStretchFactor(0, 3);
  rows_->setStretchFactor(1, 2);
  rows_->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(rows_);
  retranslate();
}

void PlotArea::registerPlot(LivePlot* plot) {
  plot->setHistory(history_);
  plot->setPresentation(line_scale_, font_ratio_);  // a view added in presentation mode
  if (plot != loss_plot_) loss_plot_->linkStepAxis(plot);  // one step range for all plots
  plots_.push_back(plot);
}

void PlotArea::addView(Slot slot, QWidget* view, std::function<QString()> title,
                       const QString& key) {
  QTabWidget* tabs = slot == Slot::Side ? side_tabs_ : bottom_tabs_;
  if (auto* pv = qobject_cast<PlotView*>(view)) {
    views_.push_back(pv);
    registerPlot(pv->plot());
  } else if (auto* plot = qobject_cast<LivePlot*>(view)) {
    registerPlot(plot);
  }
  tabs->addTab(view, title());
  tabs_.push_back({tabs, view, std::move(title), key});
  if (slot == Slot::Side && side_tabs_->isHidden()) {
    side_tabs_->show();
    top_->setSizes({600, 400});
  }
}

void PlotArea::showView(QWidget* view) {
  for (const Tab& t : tabs_)
    if (t.view == view) t.tabs->setCurrentWidget(view);
}

void PlotArea::emphasize(QWidget* view) {
  bool in_bottom = false;
  for (const Tab& t : tabs_)
    if (t.view == view && t.tabs == bottom_tabs_) in_bottom = true;
  if (!in_bottom) {
    if (!rows_before_emphasis_.isEmpty()) rows_->setSizes(rows_before_emphasis_);
    rows_before_emphasis_.clear();
    return;
  }
  // 47%: at 1024x768 under a lesson step the loss plot above keeps room for its legend and a
  // teaching banner at 1.5x (half and half stacked its tick labels).
  const QList<int> sizes = rows_->sizes();
  const int total = sizes.value(0) + sizes.value(1);
  const int bottom = total * 47 / 100;
  if (total <= 0 || sizes.value(1) >= bottom) return;  // tall enough already
  if (rows_before_emphasis_.isEmpty()) rows_before_emphasis_ = sizes;
  rows_->setSizes({total - bottom, bottom});
}

double PlotArea::bottomShare() const {
  const QList<int> sizes = rows_->sizes();
  const int total = sizes.value(0) + sizes.value(1);
  return total > 0 ? static_cast<double>(sizes.value(1)) / total : 0.0;
}

void PlotArea::sync() {
  for (LivePlot* p : plots_) p->sync();
}

void PlotArea::resetView() {
  for (LivePlot* p : plots_) p->resetView();
}

void PlotArea::replot(bool immediately) {
  for (LivePlot* p : plots_)
    p->replot(immediately ? QCustomPlot::rpImmediateRefresh : QCustomPlot::rpQueuedReplot);
}

void PlotArea::setPresentation(double lineScale, double fontRatio, bool bottomShown) {
  line_scale_ = lineScale;
  font_ratio_ = fontRatio;
  const bool on = lineScale != 1 || fontRatio != 1;
  for (LivePlot* p : plots_) p->setPresentation(lineScale, fontRatio);
  for (PlotView* v : views_) v->setBarShown(!on);
  setHiddenFor(bottom_tabs_, QStringLiteral("presentation"), !bottomShown);
  // The tab bars have a style sheet of their own, which keeps the font they were polished
  // with: polished again, they take the application's font (larger in presentation mode).
  for (QTabWidget* t : {side_tabs_, bottom_tabs_}) t->setStyleSheet(t->styleSheet());
  // The loss plot keeps three fifths of its row, as it first had (the labels inside it need
  // the room at 1024 px), whatever the user dragged; their sizes come back after the mode.
  if (!side_tabs_->isHidden()) {
    if (on && !presenting_) top_sizes_ = top_->sizes();
    const int w = std::max(5, top_->width());
    if (on) top_->setSizes({w * 3 / 5, w - w * 3 / 5});
    else if (presenting_) top_->setSizes(top_sizes_);
  }
  presenting_ = on;
  emit presentationChanged(lineScale, fontRatio);
}

namespace {
constexpr quint32 kStateMagic = 0x54534c31;  // "TSL1"
}  // namespace

QByteArray PlotArea::saveState() const {
  QByteArray out;
  QDataStream s(&out, QIODevice::WriteOnly);
  // Outside presentation mode's own split of the top row.
  s << kStateMagic << (presenting_ ? top_sizes_ : top_->sizes())
    << (rows_before_emphasis_.isEmpty() ? rows_->sizes() : rows_before_emphasis_)
    << side_tabs_->currentIndex() << bottom_tabs_->currentIndex();
  return out;
}

bool PlotArea::restoreState(const QByteArray& state) {
  QDataStream s(state);
  quint32 magic = 0;
  QList<int> top, rows;
  int side = -1, bottom = -1;
  s >> magic >> top >> rows >> side >> bottom;
  if (s.status() != QDataStream::Ok || magic != kStateMagic || top.size() != top_->count() ||
      rows.size() != rows_->count())
    return false;
  top_->setSizes(top);
  rows_->setSizes(rows);
  if (side >= 0 && side < side_tabs_->count()) side_tabs_->setCurrentIndex(side);
  if (bottom >= 0 && bottom < bottom_tabs_->count()) bottom_tabs_->setCurrentIndex(bottom);
  return true;
}

bool PlotArea::bottomShown() const { return !bottom_tabs_->isHidden(); }

QWidget* PlotArea::sideViews() const { return side_tabs_; }
QWidget* PlotArea::bottomViews() const { return bottom_tabs_; }

QWidget* PlotArea::view(const QString& key) const {
  if (key == QLatin1String("loss")) return loss_view_;
  if (key == QLatin1String("gradient")) return grad_view_;
  for (const Tab& t : tabs_)
    if (t.key == key) return t.view;
  return nullptr;
}

void PlotArea::retranslate() {
  for (PlotView* v : views_) v->retranslate();
  for (LivePlot* p : plots_) p->retranslate();
  for (const Tab& t : tabs_) t.tabs->setTabText(t.tabs->indexOf(t.view), t.title());
  replot(false);
}

}  // namespace trainscope
