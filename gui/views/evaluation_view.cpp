#include "gui/views/evaluation_view.h"

#include "gui/plots/palette.h"
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/train/probes/evaluation.h"
#include "gui/tr.h"
#include "gui/widgets/pixel_image.h"
#include "gui/plots/plot_style.h"
#include "qcustomplot.h"

namespace trainscope {
namespace {

const QColor& kRight = palette::tab10(0);  // the diagonal: blue
const QColor& kWrong = palette::kAlarm;   // errors: red

/// `base` blended towards white: share 0 white, share 1 the full colour.
QColor shade(const QColor& base, double share) {
  const double t = std::clamp(share, 0.0, 1.0);
  auto mix = [t](int c) { return static_cast<int>(std::lround(255 - (255 - c) * t)); };
  return QColor(mix(base.red()), mix(base.green()), mix(base.blue()));
}

QString percent(double fraction) { return QString::number(100.0 * fraction, 'f', 1) + QLatin1Char('%'); }

}  // namespace

/// The confusion matrix, painted: row labels "index name" on the left, column indices on top.
class ConfusionMatrixWidget : public QWidget {
 public:
  explicit ConfusionMatrixWidget(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("confusionMatrix"));
    setMinimumHeight(60);
  }
  void set(std::vector<int64_t> counts, int n, QStringList names) {
    counts_ = std::move(counts);
    n_ = n;
    names_ = std::move(names);
    update();
  }
  int64_t count(int t, int p) const { return counts_[static_cast<std::size_t>(t * n_ + p)]; }
  const QStringList& names() const { return names_; }
  int64_t rowTotal(int t) const {
    int64_t s = 0;
    for (int p = 0; p < n_; ++p) s += count(t, p);
    return s;
  }

 protected:
  bool event(QEvent* e) override {
    if (e->type() == QEvent::ToolTip) {
      auto* help = static_cast<QHelpEvent*>(e);
      const auto [t, p] = cellAt(help->pos());
      if (t >= 0) {
        const int64_t total = rowTotal(t);
        QToolTip::showText(help->globalPos(),
                           Tr::tr("true %1, predicted %2: %n sample(s) (%3 of the class)", "",
                                  static_cast<int>(count(t, p)))
                               .arg(names_.value(t), names_.value(p),
                                    percent(total > 0 ? static_cast<double>(count(t, p)) / total : 0)));
      } else {
        QToolTip::hideText();
      }
      return true;
    }
    return QWidget::event(e);
  }

  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (n_ <= 0 || counts_.size() != static_cast<std::size_t>(n_ * n_)) return;
    layoutCells();
    const QFontMetrics fm(font());
    p.setPen(palette().text().color());
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    p.setFont(small);
    const QFontMetrics sfm(small);
    // Axis titles: "predicted →" over the columns (to the right edge), "true ↓" over the row
    // labels, on the line of the column numbers.
    p.drawText(QRect(grid_.left(), 0, width() - grid_.left(), fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter,
               sfm.elidedText(Tr::tr("predicted class →"), Qt::ElideRight, width() - grid_.left()));
    p.drawText(QRect(0, fm.height(), grid_.left() - 4, sfm.height()), Qt::AlignRight | Qt::AlignVCenter,
               sfm.elidedText(Tr::tr("true class ↓"), Qt::ElideRight, grid_.left() - 4));
    for (int i = 0; i < n_; ++i) {
      const QRect row(0, grid_.top() + i * cell_h_, grid_.left() - 4, cell_h_);
      if (cell_h_ >= sfm.height() - 2)
        p.drawText(row, Qt::AlignRight | Qt::AlignVCenter,
                   sfm.elidedText(names_.value(i), Qt::ElideRight, row.width()));
      const QRect col(grid_.left() + i * cell_w_, fm.height(), cell_w_, sfm.height());
      if (cell_w_ >= sfm.horizontalAdvance(QString::number(i)))
        p.drawText(col, Qt::AlignCenter, QString::number(i));
    }
    for (int t = 0; t < n_; ++t) {
      const int64_t total = rowTotal(t);
      for (int q = 0; q < n_; ++q) {
        const int64_t c = count(t, q);
        const double share = total > 0 ? static_cast<double>(c) / total : 0;
        const QRect cell(grid_.left() + q * cell_w_, grid_.top() + t * cell_h_, cell_w_, cell_h_);
        p.fillRect(cell, c == 0 ? palette().base().color() : shade(t == q ? kRight : kWrong, 0.15 + 0.85 * share));
        p.setPen(palette::kGridLine);
        p.drawRect(cell.adjusted(0, 0, -1, -1));
        const QString text = QString::number(c);
        if (c > 0 && sfm.horizontalAdvance(text) <= cell_w_ - 2 && sfm.height() <= cell_h_) {
          p.setPen(share > 0.55 ? Qt::white : Qt::black);
          p.drawText(cell, Qt::AlignCenter, text);
        }
      }
    }
  }

 private:
  void layoutCells() {
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    const QFontMetrics sfm(small), fm(font());
    int label_w = 0;
    for (const QString& s : names_) label_w = std::max(label_w, sfm.horizontalAdvance(s));
    // The corner's "true class" whole, also over short labels ("0" ... "9"; issue 43 item 22).
    label_w = std::max(label_w, sfm.horizontalAdvance(Tr::tr("true class ↓")));
    label_w = std::min(label_w + 8, width() * 2 / 5);
    const int top = fm.height() + sfm.height() + 2;
    cell_w_ = std::max(1, (width() - label_w - 2) / n_);
    cell_h_ = std::max(1, (height() - top - 2) / n_);
    const int side = std::min(cell_w_, cell_h_ * 2);  // cells no wider than twice their height
    cell_w_ = side;
    grid_ = QRect(label_w, top, cell_w_ * n_, cell_h_ * n_);
  }
  std::pair<int, int> cellAt(const QPoint& pos) {
    if (n_ <= 0) return {-1, -1};
    layoutCells();
    if (!grid_.contains(pos)) return {-1, -1};
    return {std::min(n_ - 1, (pos.y() - grid_.top()) / cell_h_),
            std::min(n_ - 1, (pos.x() - grid_.left()) / cell_w_)};
  }

  std::vector<int64_t> counts_;
  int n_ = 0;
  QStringList names_;
  QRect grid_;
  int cell_w_ = 1, cell_h_ = 1;
};

/// The worst-predicted validation images as thumbnails, as the user gave them.
class WorstImagesWidget : public QWidget {
 public:
  explicit WorstImagesWidget(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("worstImages"));
  }
  void set(const ValidationDetail* d, std::vector<int64_t> shape, QStringList names) {
    detail_ = d;
    shape_ = std::move(shape);
    names_ = std::move(names);
    update();
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!detail_ || detail_->worst.empty() || shape_.size() != 3) return;
    const int c = static_cast<int>(shape_[0]), h = static_cast<int>(shape_[1]),
              w = static_cast<int>(shape_[2]);
    cells_.clear();
    const int n = static_cast<int>(detail_->worst.size());
    const int cols = width() >= 520 ? 6 : 4;
    const int rows = (n + cols - 1) / cols;
    const int cell_w = width() / cols;
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() * 0.8));
    p.setFont(small);
    const QFontMetrics fm(small);
    const int text_h = 2 * fm.height();
    const int cell_h = std::max(text_h + 12, height() / std::max(1, rows));
    const int side = std::max(8, std::min(cell_w - 8, cell_h - text_h - 6));
    for (int k = 0; k < n; ++k) {
      const WorstSample& s = detail_->worst[static_cast<std::size_t>(k)];
      const QImage img = planarImage(c, h, w, [&s](std::size_t i) {
        return i < s.raw.size() ? static_cast<uchar>(std::clamp(s.raw[i], 0.0f, 255.0f)) : uchar(0);
      });
      const int cx = (k % cols) * cell_w, cy = (k / cols) * cell_h;
      const QRect target(cx + (cell_w - side) / 2, cy + 2, side, side);
      p.drawImage(target, img);
      const bool wrong = s.predicted != s.target;
      p.setPen(QPen(wrong ? kWrong : kRight, wrong ? 3 : 1));
      p.drawRect(target.adjusted(-1, -1, 0, 0));
      const QRect line1(cx, target.bottom() + 2, cell_w, fm.height());
      p.setPen(wrong ? kWrong : palette().text().color());
      p.drawText(line1, Qt::AlignHCenter | Qt::AlignTop,
                 fm.elidedText(names_.value(static_cast<int>(s.predicted)), Qt::ElideRight, cell_w - 2));
      p.setPen(palette().text().color());
      p.drawText(line1.translated(0, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                 fm.elidedText(Tr::tr("true: %1").arg(names_.value(static_cast<int>(s.target))),
                               Qt::ElideRight, cell_w - 2));
      cells_.push_back(QRect(cx, cy, cell_w, cell_h));
    }
  }

  bool event(QEvent* e) override {
    if (e->type() == QEvent::ToolTip && detail_) {
      auto* help = static_cast<QHelpEvent*>(e);
      for (std::size_t k = 0; k < cells_.size() && k < detail_->worst.size(); ++k) {
        if (!cells_[k].contains(help->pos())) continue;
        const WorstSample& s = detail_->worst[k];
        QToolTip::showText(help->globalPos(),
                           Tr::tr("Sample %1: true %2, predicted %3; the model gives the true "
                                  "class p = %4 (loss %5)")
                               .arg(s.sample >= 0 ? s.sample : s.position)
                               .arg(names_.value(static_cast<int>(s.target)),
                                    names_.value(static_cast<int>(s.predicted)))
                               .arg(s.probability, 0, 'f', 3)
                               .arg(s.loss, 0, 'g', 4));
        return true;
      }
      QToolTip::hideText();
      return true;
    }
    return QWidget::event(e);
  }

 private:
  const ValidationDetail* detail_ = nullptr;
  std::vector<int64_t> shape_;
  QStringList names_;
  std::vector<QRect> cells_;  ///< where each sample was drawn (tooltips)
};

EvaluationView::EvaluationView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("evaluationView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("evaluationCaption"));
  caption_->setWordWrap(true);
  caption_->setContentsMargins(4, 0, 4, 0);
  layout->addWidget(caption_);
  stack_ = new QStackedWidget(this);
  layout->addWidget(stack_, 1);

  empty_ = new QLabel(this);
  empty_->setAlignment(Qt::AlignCenter);
  empty_->setWordWrap(true);
  stack_->addWidget(empty_);

  classification_ = new QWidget(this);
  auto* split = new QSplitter(Qt::Vertical, classification_);
  auto* cl = new QVBoxLayout(classification_);
  cl->setContentsMargins(0, 0, 0, 0);
  cl->addWidget(split);
  matrix_ = new ConfusionMatrixWidget(split);
  split->addWidget(matrix_);
  auto* lower = new QWidget(split);
  auto* ll = new QVBoxLayout(lower);
  ll->setContentsMargins(0, 0, 0, 0);
  ll->setSpacing(1);
  worst_caption_ = new QLabel(lower);
  worst_caption_->setWordWrap(true);
  worst_caption_->setContentsMargins(4, 0, 4, 0);
  ll->addWidget(worst_caption_);
  worst_stack_ = new QStackedWidget(lower);
  worst_images_ = new WorstImagesWidget(worst_stack_);
  worst_rows_ = new QTableWidget(worst_stack_);
  worst_rows_->setObjectName(QStringLiteral("worstRows"));
  worst_rows_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  worst_rows_->verticalHeader()->hide();
  worst_rows_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  worst_stack_->addWidget(worst_images_);
  worst_stack_->addWidget(worst_rows_);
  // Small minimums: the side tab of a 1280x720 screen is short, and the splitter must fit.
  worst_rows_->setMinimumHeight(40);
  worst_images_->setMinimumHeight(40);
  worst_stack_->setMinimumHeight(40);
  ll->addWidget(worst_stack_, 1);
  split->addWidget(lower);
  split->setStretchFactor(0, 3);  // the matrix first: a class per row must stay readable
  split->setStretchFactor(1, 2);
  split->setSizes({300, 200});
  split->setChildrenCollapsible(false);
  stack_->addWidget(classification_);

  plot_ = new QCustomPlot(this);
  followPresentation(plot_);
  plot_->setObjectName(QStringLiteral("evaluationPlot"));
  diagonal_ = plot_->addGraph();
  diagonal_->setPen(QPen(palette::kGuide, 1.5, Qt::DashLine));
  points_ = plot_->addGraph();
  points_->setLineStyle(QCPGraph::lsNone);
  points_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, palette::kVal,
                                           palette::withAlpha(palette::kVal, 90), 5));
  stack_->addWidget(plot_);
  clear();
}

void EvaluationView::setRunInfo(const RunInfo& info) {
  info_ = info;
  evaluation_caption_.clear();
  detail_.reset();
  epoch_.reset();
  stack_->setCurrentWidget(empty_);
  retranslate();
}

void EvaluationView::setEpoch(const EpochRecord& epoch) {
  epoch_ = epoch;
  if (!detail_) retranslate();
}

QString EvaluationView::emptyText() const { return empty_->text(); }

QStringList EvaluationView::matrixLabels() const { return matrix_->names(); }

void EvaluationView::clear() {
  info_.reset();
  detail_.reset();
  epoch_.reset();
  worst_images_->set(nullptr, {}, {});
  stack_->setCurrentWidget(empty_);
  retranslate();
}

QString EvaluationView::caption() const { return caption_->text(); }

QString EvaluationView::className(int64_t c) const {
  if (info_ && c >= 0 && c < static_cast<int64_t>(info_->data.class_names.size()))
    return QCoreApplication::translate(
        "TrainScope", info_->data.class_names[static_cast<std::size_t>(c)].c_str());
  return QString::number(c);
}

void EvaluationView::setDetail(const ValidationDetail& detail) {
  detail_ = detail;
  const ValidationDetail& d = *detail_;
  if (d.n_classes > 0) {
    QStringList names, labelled;
    for (int64_t c = 0; c < d.n_classes; ++c) {
      names << className(c);
      // "0 T-shirt/top", but "3", not "3 3", for classes named by their number (digits).
      labelled << (className(c) == QString::number(c) ? className(c)
                                                       : QStringLiteral("%1 %2").arg(c).arg(className(c)));
    }
    matrix_->set(d.confusion, static_cast<int>(d.n_classes), labelled);
    const bool images = info_ && info_->data.image_shape.size() == 3;
    if (images) {
      worst_images_->set(&*detail_, info_->data.image_shape, names);
      worst_stack_->setCurrentWidget(worst_images_);
    } else {
      showRows(d);
      worst_stack_->setCurrentWidget(worst_rows_);
    }
    stack_->setCurrentWidget(classification_);
  } else {
    QVector<double> x, y;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t i = 0; i < d.target.size() && i < d.predicted.size(); ++i) {
      x << d.target[i];
      y << d.predicted[i];
      lo = std::min({lo, static_cast<double>(d.target[i]), static_cast<double>(d.predicted[i])});
      hi = std::max({hi, static_cast<double>(d.target[i]), static_cast<double>(d.predicted[i])});
    }
    points_->setData(x, y);
    if (std::isfinite(lo) && std::isfinite(hi)) {
      const double pad = hi > lo ? 0.05 * (hi - lo) : 1;
      diagonal_->setData({lo - pad, hi + pad}, {lo - pad, hi + pad});
      plot_->xAxis->setRange(lo - pad, hi + pad);
      plot_->yAxis->setRange(lo - pad, hi + pad);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
    stack_->setCurrentWidget(plot_);
  }
  retranslate();
}

void EvaluationView::showEvaluation(const EvaluationResult& r) {
  RunInfo info;
  for (const ClassMetrics& c : r.classes) info.data.class_names.push_back(c.name);
  info_ = info;
  ValidationDetail d;
  d.n_classes = r.task == "classification" ? static_cast<int64_t>(r.classes.size()) : 0;
  for (const auto& row : r.confusion) d.confusion.insert(d.confusion.end(), row.begin(), row.end());
  const std::size_t outputs =
      r.samples > 0 ? r.predicted_value.size() / static_cast<std::size_t>(r.samples) : 1;
  for (std::size_t i = 0; d.n_classes == 0 && outputs > 0 && i * outputs < r.predicted_value.size() &&
                          i * outputs < r.target_value.size() &&
                          static_cast<int64_t>(i) < ValidationDetail::kMaxPoints;
       ++i) {
    d.predicted.push_back(static_cast<float>(r.predicted_value[i * outputs]));
    d.target.push_back(static_cast<float>(r.target_value[i * outputs]));
  }
  const QString file = QString::fromStdString(r.checkpoint);
  evaluation_caption_ =
      r.accuracy ? Tr::tr("%1 on the %2 split: %3 samples, loss %4, accuracy %5. Rows: true class; "
                          "columns: predicted class.")
                       .arg(QFileInfo(file).fileName(), QString::fromStdString(r.split))
                       .arg(r.samples)
                       .arg(r.loss, 0, 'g', 5)
                       .arg(percent(*r.accuracy))
                 : Tr::tr("%1 on the %2 split: %3 samples, mean squared error %4.")
                       .arg(QFileInfo(file).fileName(), QString::fromStdString(r.split))
                       .arg(r.samples)
                       .arg(r.loss, 0, 'g', 5);
  setDetail(d);
  if (d.n_classes > 0) {  // per class instead of worst samples
    worst_rows_->clear();
    worst_rows_->setColumnCount(5);
    worst_rows_->setRowCount(static_cast<int>(r.classes.size()));
    worst_rows_->setHorizontalHeaderLabels({Tr::tr("Class"), Tr::tr("Samples"), Tr::tr("Predicted"),
                                            Tr::tr("Precision"), Tr::tr("Recall")});
    for (int i = 0; i < static_cast<int>(r.classes.size()); ++i) {
      const ClassMetrics& m = r.classes[static_cast<std::size_t>(i)];
      const QString cells[] = {className(i), QString::number(m.support), QString::number(m.predicted),
                               QString::number(m.precision, 'f', 3), QString::number(m.recall, 'f', 3)};
      for (int j = 0; j < 5; ++j) worst_rows_->setItem(i, j, new QTableWidgetItem(cells[j]));
    }
    worst_stack_->setCurrentWidget(worst_rows_);
    worst_caption_->setText(Tr::tr("Per class: precision (of the samples predicted as the class, "
                                   "the share that is right) and recall (of the class's samples, "
                                   "the share found):"));
  }
}

void EvaluationView::showRows(const ValidationDetail& d) {
  if (!isVisible()) {
    rows_stale_ = true;
    return;
  }
  rows_stale_ = false;
  const std::vector<std::string> features =
      info_ ? info_->data.feature_names : std::vector<std::string>{};
  const int fixed = 5;
  const std::size_t n_values = d.worst.empty() ? 0 : d.worst.front().raw.size();
  const int shown = static_cast<int>(std::min<std::size_t>(n_values, 20));  // the first 20 values
  worst_rows_->clear();
  worst_rows_->setColumnCount(fixed + shown);
  worst_rows_->setRowCount(static_cast<int>(d.worst.size()));
  QStringList headers{Tr::tr("Sample"), Tr::tr("True"), Tr::tr("Predicted"), Tr::tr("P(true)"),
                      Tr::tr("Loss")};
  for (int j = 0; j < shown; ++j)
    headers << (j < static_cast<int>(features.size())
                    ? QString::fromStdString(features[static_cast<std::size_t>(j)])
                    : QStringLiteral("x%1").arg(j));
  worst_rows_->setHorizontalHeaderLabels(headers);
  for (int r = 0; r < static_cast<int>(d.worst.size()); ++r) {
    const WorstSample& s = d.worst[static_cast<std::size_t>(r)];
    auto set = [&](int col, const QString& text) {
      auto* item = new QTableWidgetItem(text);
      if (col == 2 && s.predicted != s.target) item->setForeground(kWrong);
      worst_rows_->setItem(r, col, item);
    };
    set(0, QString::number(s.sample >= 0 ? s.sample : s.position));
    set(1, className(s.target));
    set(2, className(s.predicted));
    set(3, QString::number(s.probability, 'f', 3));
    set(4, QString::number(s.loss, 'g', 4));
    for (int j = 0; j < shown && j < static_cast<int>(s.raw.size()); ++j)
      set(fixed + j, QString::number(s.raw[static_cast<std::size_t>(j)], 'g', 5));
  }
}

void EvaluationView::retranslate() {
  QString empty = Tr::tr("After each epoch this tab shows how the model does on the validation "
                         "samples: for classes a confusion matrix and the samples it gets most "
                         "wrong, for numbers its predictions against the true values.");
  if (epoch_ && std::isfinite(epoch_->val_loss)) {
    // A run read back from its folder: its files keep the metrics, not the predictions.
    const EpochRecord& e = *epoch_;
    auto n = [](double v) { return QString::number(v, 'g', 4); };
    QString metrics;
    if (e.val_accuracy)
      metrics = Tr::tr("validation loss %1, accuracy %2").arg(n(e.val_loss), n(*e.val_accuracy));
    else if (e.val_r2)
      metrics = Tr::tr("validation loss %1, R² %2, MAE %3, RMSE %4")
                    .arg(n(e.val_loss), n(*e.val_r2), n(e.val_mae.value_or(NAN)),
                         n(e.val_rmse.value_or(NAN)));
    else
      metrics = Tr::tr("validation loss %1").arg(n(e.val_loss));
    empty = Tr::tr("Epoch %1: %2.").arg(e.epoch).arg(metrics) + QStringLiteral("\n\n") +
            Tr::tr("A run's files keep its metrics, not its predictions: Evaluate... under "
                   "Checkpoints draws them for a checkpoint such as best.pt.");
  }
  empty_->setText(empty);
  if (!detail_) {
    caption_->setText(QString());
    return;
  }
  const ValidationDetail& d = *detail_;
  if (!evaluation_caption_.isEmpty()) {
    caption_->setText(evaluation_caption_);
    plot_->xAxis->setLabel(Tr::tr("true value"));
    plot_->yAxis->setLabel(Tr::tr("predicted value"));
    return;
  }
  if (d.n_classes > 0) {
    int64_t total = 0, right = 0;
    for (int64_t t = 0; t < d.n_classes; ++t)
      for (int64_t p = 0; p < d.n_classes; ++p) {
        const int64_t c = d.confusion[static_cast<std::size_t>(t * d.n_classes + p)];
        total += c;
        if (t == p) right += c;
      }
    caption_->setText(Tr::tr("Validation after epoch %1: %2 of %3 samples right (%4). Rows: true "
                             "class; columns: predicted class.")
                          .arg(d.epoch)
                          .arg(right)
                          .arg(total)
                          .arg(percent(total > 0 ? static_cast<double>(right) / total : 0)));
    worst_caption_->setText(Tr::tr("The %n validation sample(s) with the highest loss, worst "
                                   "first:", "", static_cast<int>(d.worst.size())));
  } else {
    // R² of the points shown: 1 - SS_res / SS_tot.
    double mean = 0;
    const std::size_t n = std::min(d.target.size(), d.predicted.size());
    for (std::size_t i = 0; i < n; ++i) mean += d.target[i];
    mean = n > 0 ? mean / static_cast<double>(n) : 0;
    double ss_res = 0, ss_tot = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ss_res += std::pow(d.predicted[i] - d.target[i], 2);
      ss_tot += std::pow(d.target[i] - mean, 2);
    }
    const QString r2 = ss_tot > 0 ? QString::number(1 - ss_res / ss_tot, 'f', 3) : QStringLiteral("-");
    caption_->setText(Tr::tr("Validation after epoch %1: predicted against true value of %2 "
                             "samples (first output); on the dashed line the prediction is "
                             "exact. R² = %3.")
                          .arg(d.epoch)
                          .arg(n)
                          .arg(r2));
    plot_->xAxis->setLabel(Tr::tr("true value"));
    plot_->yAxis->setLabel(Tr::tr("predicted value"));
    plot_->replot(QCustomPlot::rpQueuedReplot);
  }
  if (d.n_classes > 0 && worst_stack_->currentWidget() == worst_rows_) showRows(d);
}

void EvaluationView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (rows_stale_ && detail_ && detail_->n_classes > 0 && worst_stack_->currentWidget() == worst_rows_)
    showRows(*detail_);
}

void EvaluationView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

}  // namespace trainscope
