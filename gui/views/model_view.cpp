#include "gui/views/model_view.h"

#include "gui/plots/palette.h"
#include <qcustomplot.h>

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "gui/plots/dense_graph.h"
#include "gui/plots/plot_export.h"
#include "gui/tr.h"
#include "gui/views/conv_maps.h"
#include "gui/widgets/pixel_image.h"

namespace trainscope {

namespace {
const QColor& kClass0 = palette::tab10(0);
const QColor& kClass1 = palette::tab10(1);
const QColor& kTruthColor = palette::kTruth;
const QColor& kPredictionColor = palette::kAlarm;
const QColor kWrongColor(214, 39, 40);
const QColor kRightColor(44, 160, 44);

// Fashion-MNIST's class names, for lupdate; shown through QCoreApplication::translate.
[[maybe_unused]] const char* const kClassNames[] = {
    QT_TRANSLATE_NOOP("TrainScope", "T-shirt/top"), QT_TRANSLATE_NOOP("TrainScope", "Trouser"),
    QT_TRANSLATE_NOOP("TrainScope", "Pullover"),    QT_TRANSLATE_NOOP("TrainScope", "Dress"),
    QT_TRANSLATE_NOOP("TrainScope", "Coat"),        QT_TRANSLATE_NOOP("TrainScope", "Sandal"),
    QT_TRANSLATE_NOOP("TrainScope", "Shirt"),       QT_TRANSLATE_NOOP("TrainScope", "Sneaker"),
    QT_TRANSLATE_NOOP("TrainScope", "Bag"),         QT_TRANSLATE_NOOP("TrainScope", "Ankle boot"),
    // The fashion-png example's folder for T-shirt/top (scripts/make-example-data: a folder
    // name holds no '/').
    QT_TRANSLATE_NOOP("TrainScope", "T-shirt-top")};

QVector<QCPGraphData> pointsOf(const std::vector<double>& x, const std::vector<double>& y,
                               const std::vector<int>* labels = nullptr, int label = 0) {
  QVector<QCPGraphData> out;
  const std::size_t n = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < n; ++i)
    if (!labels || (i < labels->size() && (*labels)[i] == label)) out.append({x[i], y[i]});
  return out;
}
}  // namespace

/// A 4x4 grid of small grayscale images with "predicted / true" under each; wrong ones framed
/// in red, right ones in green.
class ImageGrid : public QWidget {
 public:
  explicit ImageGrid(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("modelViewImages"));
  }
  void setRecord(const ModelViewRecord* r) {
    record_ = r;
    update();
  }
  /// The run's image shape [C, H, W] (RGB images arrive as one row of C*H*W pixels).
  void setImageShape(std::vector<int64_t> shape) { rgb_ = std::move(shape); }
  /// Captions the last paint had to elide (none, unless the grid is very small).
  int cutCaptions() const { return cut_; }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!record_ || record_->images.empty()) return;
    const ModelViewRecord& r = *record_;
    const int n = static_cast<int>(r.images.size());
    const int cols = 4;
    const int rows = (n + cols - 1) / cols;
    const int cell_w = width() / cols;
    auto name = [&r](const std::vector<int>& v, int i) {
      if (i >= static_cast<int>(v.size())) return QString();
      const int c = v[static_cast<std::size_t>(i)];
      return c >= 0 && c < static_cast<int>(r.class_names.size())
                 ? QCoreApplication::translate("TrainScope",
                                               r.class_names[static_cast<std::size_t>(c)].c_str())
                 : QString::number(c);
    };
    // The captions' font: the widget's, smaller (down to 6.5 pt) until the longest caption
    // ("true: T-shirt/top") fits a cell; only then are captions elided.
    QFont caption_font = font();
    for (;;) {
      const QFontMetrics fm(caption_font);
      bool fits = true;
      for (int k = 0; k < n && fits; ++k) {
        fits = fm.horizontalAdvance(name(r.predicted, k)) <= cell_w - 2 &&
               fm.horizontalAdvance(Tr::tr("true: %1").arg(name(r.actual, k))) <= cell_w - 2;
      }
      if (fits || caption_font.pointSizeF() <= 6.5) break;
      caption_font.setPointSizeF(caption_font.pointSizeF() - 0.5);
    }
    p.setFont(caption_font);
    const QFontMetrics fm(caption_font);
    cut_ = 0;
    auto fitted = [&](const QString& text) {
      const QString shown = fm.elidedText(text, Qt::ElideRight, cell_w - 2);
      cut_ += shown != text;
      return shown;
    };
    // Two text lines under each image: the prediction, and for a wrong one the true class (one
    // line "Sandal (true: Trouser)" would be cut off in a quarter of the side tab).
    const int line_h = fm.height();
    const int text_h = 2 * line_h + 2;
    const int cell_h = height() / std::max(rows, 1);
    const int side = std::max(8, std::min(cell_w - 8, cell_h - text_h - 8));
    for (int k = 0; k < n; ++k) {
      const int cx = (k % cols) * cell_w, cy = (k / cols) * cell_h;
      const auto& px = r.images[static_cast<std::size_t>(k)];
      QImage img;
      if (rgb_.size() == 3 && rgb_[0] == 3 &&
          px.size() == static_cast<std::size_t>(3 * rgb_[1] * rgb_[2])) {
        // RGB images (the record holds C*H*W pixels in one row): drawn as they are.
        img = planarImage(3, static_cast<int>(rgb_[1]), static_cast<int>(rgb_[2]),
                          [&px](std::size_t i) { return px[i]; });
      } else {
        img = QImage(r.image_w, r.image_h, QImage::Format_Grayscale8);
        for (int y = 0; y < r.image_h; ++y)
          for (int x = 0; x < r.image_w; ++x) {
            const std::size_t i = static_cast<std::size_t>(y * r.image_w + x);
            img.scanLine(y)[x] = i < px.size() ? px[i] : 0;  // as stored, as the import report
          }
      }
      const QRect target(cx + (cell_w - side) / 2, cy + 2, side, side);
      p.drawImage(target, img);
      const bool wrong = k < static_cast<int>(r.predicted.size()) &&
                         k < static_cast<int>(r.actual.size()) && r.predicted[k] != r.actual[k];
      p.setPen(QPen(wrong ? kWrongColor : kRightColor, wrong ? 3 : 1));
      p.drawRect(target.adjusted(-1, -1, 0, 0));
      p.setPen(wrong ? kWrongColor : palette().text().color());
      const QRect line1(cx, target.bottom() + 2, cell_w, line_h);
      p.drawText(line1, Qt::AlignHCenter | Qt::AlignTop, fitted(name(r.predicted, k)));
      if (wrong) {
        p.setPen(palette().text().color());
        p.drawText(line1.translated(0, line_h), Qt::AlignHCenter | Qt::AlignTop,
                   fitted(Tr::tr("true: %1").arg(name(r.actual, k))));
      }
    }
  }

 private:
  const ModelViewRecord* record_ = nullptr;
  std::vector<int64_t> rgb_;
  int cut_ = 0;
};

ModelView::ModelView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("modelView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("modelViewCaption"));
  caption_->setWordWrap(true);
  caption_->setContentsMargins(4, 0, 4, 0);
  layout->addWidget(caption_);
  stack_ = new QStackedWidget(this);
  layout->addWidget(stack_, 1);

  empty_ = new QLabel(this);
  empty_->setObjectName(QStringLiteral("modelViewEmpty"));
  empty_->setAlignment(Qt::AlignCenter);
  empty_->setWordWrap(true);
  stack_->addWidget(empty_);

  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("modelViewPlot"));
  installPlotExportMenu(plot_);
  connect(plot_, &QCustomPlot::beforeReplot, this, [this] {
    if (line_scale_ != 1 || font_ratio_ != 1 || styler_.active())
      styler_.apply(plot_, line_scale_, font_ratio_);
    // As many tick labels as fit with room between them ("-2 0 2 4" never run together in a
    // narrow side view, larger in presentation mode): about one per four label heights.
    const QFontMetrics fm(plot_->xAxis->tickLabelFont());
    plot_->xAxis->ticker()->setTickCount(std::clamp(plot_->width() / (fm.height() * 4), 2, 5));
    plot_->yAxis->ticker()->setTickCount(std::clamp(plot_->height() / (fm.height() * 3), 2, 5));
  });
  QFont f = plot_->font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  plot_->legend->setFont(f);
  plot_->legend->setVisible(false);  // the caption names what is drawn; nothing hides data
  plot_->legend->setBrush(palette::kLabelBackground);
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
  map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
  QCPColorGradient g;
  g.setColorStopAt(0, kClass0.lighter(160));
  g.setColorStopAt(0.5, Qt::white);
  g.setColorStopAt(1, kClass1.lighter(150));
  map_->setGradient(g);
  map_->setDataRange(QCPRange(0, 1));
  map_->setInterpolate(true);
  map_->setTightBoundary(false);
  for (int c = 0; c < 2; ++c) {
    const QColor color = c == 0 ? kClass0 : kClass1;
    // Up to a few thousand points each: stamped, not drawn circle by circle (DenseGraph).
    train_points_[c] = new DenseGraph(plot_->xAxis, plot_->yAxis);
    train_points_[c]->setLineStyle(QCPGraph::lsNone);
    train_points_[c]->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, color.darker(120), color, 7));
    val_points_[c] = new DenseGraph(plot_->xAxis, plot_->yAxis);
    val_points_[c]->setLineStyle(QCPGraph::lsNone);
    val_points_[c]->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color.darker(110), 1.5), Qt::NoBrush, 7));
  }
  truth_ = plot_->addGraph();
  truth_->setPen(QPen(kTruthColor, 1.5, Qt::DashLine));
  prediction_ = plot_->addGraph();
  prediction_->setPen(QPen(kPredictionColor, 2.5));
  stack_->addWidget(plot_);

  // Images: the predictions, and for a CNN a second page with its first layer (each page gets
  // the whole side tab: both at once are too small to read at 1024x768).
  images_page_ = new QTabWidget(this);
  images_page_->setObjectName(QStringLiteral("modelViewImagePages"));
  images_page_->setDocumentMode(true);
  images_ = new ImageGrid(images_page_);
  images_page_->addTab(images_, QString());
  conv_ = new ConvMaps(images_page_);
  images_page_->addTab(conv_, QString());
  stack_->addWidget(images_page_);
  clear();
}

void ModelView::setData(const DataSummary& data) {
  const bool images = !data.image_shape.empty();
  drawable_ = images || (data.n_features == 1 && data.task == "regression") ||
              (data.n_features == 2 && data.n_classes == 2);
  images_->setImageShape(data.image_shape);
  retranslate();
}

void ModelView::clear(bool readBack) {
  read_back_ = readBack;
  drawable_ = true;
  record_.reset();
  images_->setRecord(nullptr);
  conv_->setRecord(nullptr);
  images_page_->setCurrentIndex(0);
  images_page_->setTabVisible(1, false);
  images_page_->tabBar()->setVisible(false);
  stack_->setCurrentWidget(empty_);
  retranslate();
}

int ModelView::cutCaptions() const { return images_->cutCaptions(); }

void ModelView::setPresentation(double lineScale, double fontRatio) {
  line_scale_ = lineScale;
  font_ratio_ = fontRatio;
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

int ModelView::imageCount() const { return record_ ? static_cast<int>(record_->images.size()) : 0; }

int ModelView::wrongCount() const {
  if (!record_) return 0;
  int n = 0;
  for (std::size_t i = 0; i < record_->predicted.size() && i < record_->actual.size(); ++i)
    n += record_->predicted[i] != record_->actual[i];
  return n;
}

void ModelView::setRecord(const ModelViewRecord& record) {
  record_ = record;
  switch (record_->kind) {
    case ModelViewRecord::Kind::Curve:
      showCurve(*record_);
      stack_->setCurrentWidget(plot_);
      break;
    case ModelViewRecord::Kind::Regions:
      showRegions(*record_);
      stack_->setCurrentWidget(plot_);
      break;
    case ModelViewRecord::Kind::Images:
      images_->setRecord(&*record_);
      conv_->setRecord(&*record_);
      images_page_->setTabVisible(1, ConvMaps::hasMaps(*record_));
      images_page_->tabBar()->setVisible(ConvMaps::hasMaps(*record_));
      stack_->setCurrentWidget(images_page_);
      break;
  }
  retranslate();
  if (stack_->currentWidget() == plot_) plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ModelView::showCurve(const ModelViewRecord& r) {
  map_->setVisible(false);
  map_->data()->clear();
  train_points_[0]->data()->set(pointsOf(r.train_x, r.train_y));
  val_points_[0]->data()->set(pointsOf(r.val_x, r.val_y));
  train_points_[1]->data()->clear();
  val_points_[1]->data()->clear();
  truth_->data()->set(pointsOf(r.grid_x, r.truth), true);
  prediction_->data()->set(pointsOf(r.grid_x, r.prediction), true);
  truth_->setVisible(!r.truth.empty());
  prediction_->setVisible(true);
  plot_->rescaleAxes();
  // The prediction of an over-fitted model can shoot far off: keep the data in view.
  const QCPRange y = plot_->yAxis->range();
  QCPRange data_y;
  bool found = false;
  for (QCPGraph* g : {train_points_[0], val_points_[0], truth_}) {
    bool ok = false;
    const QCPRange r2 = g->getValueRange(ok);
    if (ok)
      data_y =
          found ? QCPRange(std::min(data_y.lower, r2.lower), std::max(data_y.upper, r2.upper)) : r2;
    found = found || ok;
  }
  if (found) {
    const double pad = 0.25 * std::max(data_y.size(), 1e-6);
    plot_->yAxis->setRange(std::max(y.lower, data_y.lower - pad),
                           std::min(y.upper, data_y.upper + pad));
  }
}

void ModelView::showRegions(const ModelViewRecord& r) {
  map_->setVisible(true);
  truth_->setVisible(false);
  prediction_->setVisible(false);
  const int w = std::max(r.grid_w, 1), h = std::max(r.grid_h, 1);
  map_->data()->setSize(w, h);
  map_->data()->setRange(QCPRange(r.x0_min, r.x0_max), QCPRange(r.x1_min, r.x1_max));
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) {
      const std::size_t k = static_cast<std::size_t>(j * w + i);
      map_->data()->setCell(i, j, k < r.probability.size() ? r.probability[k] : 0.5);
    }
  for (int c = 0; c < 2; ++c) {
    train_points_[c]->data()->set(pointsOf(r.train_x, r.train_y, &r.train_label, c));
    val_points_[c]->data()->set(pointsOf(r.val_x, r.val_y, &r.val_label, c));
  }
  plot_->xAxis->setRange(r.x0_min, r.x0_max);
  plot_->yAxis->setRange(r.x1_min, r.x1_max);
}

void ModelView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void ModelView::updateCaption() {
  if (!record_) {
    caption_->clear();
    return;
  }
  const ModelViewRecord& r = *record_;
  QString what;
  switch (r.kind) {
    case ModelViewRecord::Kind::Curve:
      what = Tr::tr(
          "prediction (red) through the training points (filled); hollow: "
          "validation points; dashed: the true function");
      break;
    case ModelViewRecord::Kind::Regions:
      what = Tr::tr(
          "decision regions (shading: probability of each class); filled points: "
          "training, hollow: validation");
      break;
    case ModelViewRecord::Kind::Images:
      what = Tr::tr("%1 of %2 validation images classified wrongly (red frame)")
                 .arg(wrongCount())
                 .arg(imageCount());
      break;
  }
  caption_->setText(Tr::tr("After epoch %1: %2").arg(r.epoch).arg(what));
}

void ModelView::retranslate() {
  empty_->setText(read_back_ ? Tr::tr("This run was read back from its folder, which keeps no "
                                      "picture of the model: it is drawn only while a run "
                                      "trains. Start a run to see it again.")
                   : !drawable_ ? Tr::tr("No picture of the model for this data: it is drawn for "
                                         "regression on one input, two classes on two inputs, "
                                         "and images. The Evaluation tab shows how the model "
                                         "does on the validation samples.")
                                : Tr::tr("What the model does appears here at the end of each epoch."));
  images_page_->setTabText(0, Tr::tr("Predictions"));
  images_page_->setTabText(1, Tr::tr("First layer"));
  plot_->xAxis->setLabel(record_ && record_->kind == ModelViewRecord::Kind::Regions ? Tr::tr("x₀")
                                                                                    : Tr::tr("x"));
  plot_->yAxis->setLabel(record_ && record_->kind == ModelViewRecord::Kind::Regions ? Tr::tr("x₁")
                                                                                    : Tr::tr("y"));
  const bool regions = record_ && record_->kind == ModelViewRecord::Kind::Regions;
  train_points_[0]->setName(regions ? Tr::tr("Training, class %1").arg(0)
                                    : Tr::tr("Training points"));
  val_points_[0]->setName(regions ? Tr::tr("Validation, class %1").arg(0)
                                  : Tr::tr("Validation points"));
  train_points_[1]->setName(Tr::tr("Training, class %1").arg(1));
  val_points_[1]->setName(Tr::tr("Validation, class %1").arg(1));
  truth_->setName(Tr::tr("True function"));
  prediction_->setName(Tr::tr("Prediction"));
  // Only the curves of the record's kind in the legend.
  for (int c = 0; c < 2; ++c) {
    for (QCPGraph* g : {train_points_[c], val_points_[c]}) {
      if (c == 1 && !regions) {
        g->removeFromLegend();
      } else if (!plot_->legend->hasItemWithPlottable(g)) {
        g->addToLegend();
      }
    }
  }
  for (QCPGraph* g : {truth_, prediction_}) {
    if (regions || (g == truth_ && record_ && record_->truth.empty())) {
      g->removeFromLegend();
    } else if (!plot_->legend->hasItemWithPlottable(g)) {
      g->addToLegend();
    }
  }
  map_->removeFromLegend();
  updateCaption();
  if (stack_->currentWidget() == plot_) plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace trainscope
