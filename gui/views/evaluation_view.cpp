#include "gui/views/evaluation_view.h"

#include "gui/plots/palette.h"
#include <QEvent>
#include <QDialog>
#include <QHBoxLayout>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QSlider>
#include <QTabWidget>
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
#include "gui/views/class_curves.h"
#include "gui/views/confusion_matrix.h"
#include "gui/views/sample_thumbnails.h"
#include "gui/widgets/pixel_image.h"
#include "gui/plots/plot_style.h"
#include "qcustomplot.h"

namespace trainscope {
namespace {

const QColor& kRight = palette::tab10(0);  // the diagonal: blue
const QColor& kWrong = palette::kAlarm;   // errors: red

QString percent(double fraction) { return QString::number(100.0 * fraction, 'f', 1) + QLatin1Char('%'); }

}  // namespace

EvaluationView::EvaluationView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("evaluationView"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  caption_ = new QLabel(this);
  caption_->setObjectName(QStringLiteral("evaluationCaption"));
  caption_->setWordWrap(true);
  caption_->setContentsMargins(4, 0, 4, 0);
  auto* top = new QHBoxLayout;
  top->addWidget(caption_, 1);
  // The side tab is small at 1024x768: the same picture in a window of its own.
  window_button_ = new QToolButton(this);  // an icon: the caption keeps the width
  window_button_->setObjectName(QStringLiteral("evaluationWindowButton"));
  window_button_->setIcon(style()->standardIcon(QStyle::SP_TitleBarMaxButton));
  window_button_->setAutoRaise(true);
  window_button_->hide();
  connect(window_button_, &QToolButton::clicked, this, [this] { openWindow(); });
  top->addWidget(window_button_, 0, Qt::AlignTop);
  layout->addLayout(top);
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
  auto* upper = new QWidget(split);
  auto* ul = new QVBoxLayout(upper);
  ul->setContentsMargins(0, 0, 0, 0);
  ul->setSpacing(1);
  matrix_ = new ConfusionMatrixWidget(upper);
  ul->addWidget(matrix_, 1);
  // Two classes: the confusion matrix at another threshold on class 1's probability.
  threshold_row_ = new QWidget(upper);
  auto* tl = new QHBoxLayout(threshold_row_);
  tl->setContentsMargins(4, 0, 4, 0);
  threshold_label_ = new QLabel(threshold_row_);
  threshold_label_->setObjectName(QStringLiteral("thresholdLabel"));
  threshold_label_->setWordWrap(true);
  threshold_ = new QSlider(Qt::Horizontal, threshold_row_);
  threshold_->setObjectName(QStringLiteral("thresholdSlider"));
  threshold_->setRange(0, static_cast<int>(ValidationDetail::kThresholds - 1));
  threshold_->setValue(static_cast<int>((ValidationDetail::kThresholds - 1) / 2));
  threshold_->setMinimumWidth(120);
  tl->addWidget(threshold_label_, 1);
  tl->addWidget(threshold_);
  threshold_row_->hide();
  ul->addWidget(threshold_row_);
  split->addWidget(upper);
  connect(threshold_, &QSlider::valueChanged, this, [this] { showMatrix(); });
  connect(matrix_, &ConfusionMatrixWidget::cellClicked, this, [this](int t, int p) {
    cell_ = std::make_pair(t, p);
    showSamples();
    tabs_->setCurrentWidget(samples_page_);
  });

  tabs_ = new QTabWidget(split);
  tabs_->setObjectName(QStringLiteral("evaluationTabs"));
  samples_page_ = new QWidget(tabs_);
  auto* ll = new QVBoxLayout(samples_page_);
  ll->setContentsMargins(0, 0, 0, 0);
  ll->setSpacing(1);
  auto* caption_row = new QHBoxLayout;
  worst_caption_ = new QLabel(samples_page_);
  worst_caption_->setObjectName(QStringLiteral("samplesCaption"));
  worst_caption_->setWordWrap(true);
  worst_caption_->setContentsMargins(4, 0, 4, 0);
  caption_row->addWidget(worst_caption_, 1);
  show_worst_ = new QPushButton(samples_page_);
  show_worst_->setObjectName(QStringLiteral("showWorstButton"));
  show_worst_->hide();
  connect(show_worst_, &QPushButton::clicked, this, [this] {
    cell_.reset();
    matrix_->select(-1, -1);
    showSamples();
  });
  caption_row->addWidget(show_worst_);
  ll->addLayout(caption_row);
  worst_stack_ = new QStackedWidget(samples_page_);
  worst_images_ = new WorstImagesWidget(worst_stack_);
  grad_cam_ = new GradCamControls(worst_images_, samples_page_);
  grad_cam_->hide();
  ll->addWidget(grad_cam_);
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
  tabs_->addTab(samples_page_, QString());
  class_table_ = new ClassTable(tabs_);
  tabs_->addTab(class_table_, QString());
  pr_curves_ = new ClassCurvesPlot(ClassCurvesPlot::Kind::PrecisionRecall, tabs_);
  tabs_->addTab(pr_curves_, QString());
  roc_curves_ = new ClassCurvesPlot(ClassCurvesPlot::Kind::Roc, tabs_);
  tabs_->addTab(roc_curves_, QString());
  split->addWidget(tabs_);
  split->setStretchFactor(0, 3);  // the matrix first: a class per row must stay readable
  split->setStretchFactor(1, 2);  // the pages (Open in a window for large curves)
  split->setSizes({300, 220});
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
  cell_.reset();
  matrix_->select(-1, -1);
  worst_images_->set(nullptr, {}, {});
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
  cell_.reset();
  matrix_->select(-1, -1);
  stack_->setCurrentWidget(empty_);
  retranslate();
}

QString EvaluationView::caption() const { return caption_->text(); }

QString EvaluationView::samplesCaption() const { return worst_caption_->text(); }

QString EvaluationView::className(int64_t c) const {
  if (info_ && c >= 0 && c < static_cast<int64_t>(info_->data.class_names.size()))
    return QCoreApplication::translate(
        "TrainScope", info_->data.class_names[static_cast<std::size_t>(c)].c_str());
  return QString::number(c);
}

void EvaluationView::setDetail(const ValidationDetail& detail) {
  detail_ = detail;
  window_button_->setVisible(evaluation_caption_.isEmpty() && window_button_->isEnabled());
  const ValidationDetail& d = *detail_;
  if (d.n_classes > 0) {
    QStringList names;
    for (int64_t c = 0; c < d.n_classes; ++c) names << className(c);
    showMatrix();
    showSamples();
    class_table_->set(d.classes, names);
    pr_curves_->set(d.classes, names, d.curves_thinned);
    roc_curves_->set(d.classes, names, d.curves_thinned);
    threshold_row_->setVisible(d.n_classes == 2 && d.tp_at.size() == 2 && d.fp_at.size() == 2);
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
  if (d.n_classes > 0 && !r.scores.empty()) {  // the per-class reports and curves, as a run's
    std::vector<int64_t> predicted;
    const auto k = static_cast<std::size_t>(d.n_classes);
    for (std::size_t i = 0; i < r.scores.size() / k; ++i)
      predicted.push_back(static_cast<int64_t>(
          std::max_element(r.scores.begin() + static_cast<std::ptrdiff_t>(i * k),
                           r.scores.begin() + static_cast<std::ptrdiff_t>((i + 1) * k)) -
          (r.scores.begin() + static_cast<std::ptrdiff_t>(i * k))));
    d.samples = static_cast<int64_t>(r.true_class.size());
    d.classes = classReports(r.scores, r.true_class, predicted, d.n_classes, /*curves=*/true);
    for (ClassReport& c : d.classes)
      d.curves_thinned = thinCurves(c, ValidationDetail::kMaxCurvePoints) || d.curves_thinned;
    ThresholdCounts counts = thresholdCounts(r.scores, r.true_class, d.n_classes, ValidationDetail::kThresholds);
    d.tp_at = std::move(counts.tp);
    d.fp_at = std::move(counts.fp);
  }
  setDetail(d);
  if (d.n_classes > 0) tabs_->setCurrentWidget(class_table_);  // evaluate keeps no samples
}

QWidget* EvaluationView::openWindow() {
  if (!detail_) return nullptr;
  auto* dialog = new QDialog(window());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setObjectName(QStringLiteral("evaluationWindow"));
  dialog->setWindowTitle(Tr::tr("Evaluation after epoch %1").arg(detail_->epoch));
  auto* layout = new QVBoxLayout(dialog);
  auto* view = new EvaluationView(dialog);
  if (info_) view->setRunInfo(*info_);
  view->setDetail(*detail_);  // a copy: the window keeps this epoch while training goes on
  view->window_button_->setEnabled(false);
  view->window_button_->hide();
  layout->addWidget(view);
  dialog->resize(960, 720);
  dialog->show();
  return dialog;
}

void EvaluationView::showMatrix() {
  if (!detail_ || detail_->n_classes <= 0) return;
  const ValidationDetail& d = *detail_;
  QStringList labelled;
  for (int64_t c = 0; c < d.n_classes; ++c)  // "0 T-shirt/top", but "3", not "3 3"
    labelled << (className(c) == QString::number(c) ? className(c)
                                                     : QStringLiteral("%1 %2").arg(c).arg(className(c)));
  const int k = threshold_->value();
  const bool slid = d.n_classes == 2 && d.tp_at.size() == 2 && d.fp_at.size() == 2 &&
                    k != threshold_->maximum() / 2;
  if (!slid) {  // the model's own decision: the class of the highest probability
    matrix_->set(d.confusion, static_cast<int>(d.n_classes), labelled);
  } else {  // class 1 when its probability is at least the threshold
    const auto at = static_cast<std::size_t>(k);
    const int64_t tp = d.tp_at[1][at], fp = d.fp_at[1][at];
    const int64_t pos = d.tp_at[1][0], neg = d.fp_at[1][0];
    matrix_->set({neg - fp, fp, pos - tp, tp}, 2, labelled);
  }
  retranslateThreshold();
}

const std::vector<WorstSample>& EvaluationView::shownSamples() const {
  static const std::vector<WorstSample> none;
  if (!detail_) return none;
  const ValidationDetail& d = *detail_;
  if (!cell_) return d.worst;
  const auto i = static_cast<std::size_t>(cell_->first * d.n_classes + cell_->second);
  return i < d.cells.size() ? d.cells[i] : none;
}

void EvaluationView::showSamples() {
  if (!detail_ || detail_->n_classes <= 0) return;
  const bool images = info_ && info_->data.image_shape.size() == 3;
  if (images) {
    QStringList names;
    for (int64_t c = 0; c < detail_->n_classes; ++c) names << className(c);
    worst_images_->set(&shownSamples(), info_->data.image_shape, names);
    worst_stack_->setCurrentWidget(worst_images_);
  } else {
    showRows(shownSamples());
    worst_stack_->setCurrentWidget(worst_rows_);
  }
  show_worst_->setVisible(cell_.has_value());
  // Grad-CAM: the worst samples of image data and a CNN carry the maps
  const std::vector<WorstSample>& shown = shownSamples();
  grad_cam_->setVisible(images && !shown.empty() && !shown.front().cams.empty());
  if (images) {
    QStringList names;
    for (int64_t c = 0; c < detail_->n_classes; ++c) names << className(c);
    grad_cam_->setClasses(names);
  }
  retranslateSamples();
}

void EvaluationView::retranslateSamples() {
  if (!detail_ || detail_->n_classes <= 0) return;
  const ValidationDetail& d = *detail_;
  show_worst_->setText(Tr::tr("Show the worst samples"));
  if (!cell_) {
    worst_caption_->setText(d.worst.empty() && !evaluation_caption_.isEmpty()
                                ? Tr::tr("Evaluate keeps no samples: the Evaluation tab of a "
                                         "training run shows them.")
                                : Tr::tr("The %n validation sample(s) with the highest loss, worst "
                                         "first (click a cell of the matrix for its samples):",
                                         "", static_cast<int>(d.worst.size())));
    return;
  }
  const int t = cell_->first, p = cell_->second;
  const int64_t count = t * d.n_classes + p < static_cast<int64_t>(d.confusion.size())
                            ? d.confusion[static_cast<std::size_t>(t * d.n_classes + p)]
                            : 0;
  const auto shown = static_cast<int>(shownSamples().size());
  worst_caption_->setText(
      count == 0 ? Tr::tr("True %1, predicted %2: no validation sample.").arg(className(t), className(p))
      : shown == 0
          ? Tr::tr("True %1, predicted %2: %3 sample(s); evaluate keeps none of them.")
                .arg(className(t), className(p))
                .arg(count)
          : Tr::tr("True %1, predicted %2 (the class of the highest probability): the first %n "
                   "of %3 sample(s) in the validation split.",
                   "", shown)
                .arg(className(t), className(p))
                .arg(count));
}

void EvaluationView::retranslateThreshold() {
  if (!detail_ || !threshold_row_->isVisibleTo(this) || detail_->tp_at.size() != 2) return;
  const ValidationDetail& d = *detail_;
  const int k = threshold_->value();
  const double thr = static_cast<double>(k) / static_cast<double>(threshold_->maximum());
  const auto at = static_cast<std::size_t>(k);
  const double tp = static_cast<double>(d.tp_at[1][at]), fp = static_cast<double>(d.fp_at[1][at]);
  const double pos = static_cast<double>(d.tp_at[1][0]);
  const QString precision = tp + fp > 0 ? QString::number(tp / (tp + fp), 'f', 3) : QStringLiteral("–");
  const QString recall = pos > 0 ? QString::number(tp / pos, 'f', 3) : QStringLiteral("–");
  threshold_label_->setText(
      k == threshold_->maximum() / 2
          ? Tr::tr("Threshold 0.50: %1 when its probability is the higher one (the model's "
                   "decision). Move the slider to trade precision (%2) against recall (%3).")
                .arg(className(1), precision, recall)
          : Tr::tr("Threshold %1: %2 when its probability is at least %1; precision %3, recall %4.")
                .arg(QString::number(thr, 'f', 3), className(1), precision, recall));
}

void EvaluationView::showRows(const std::vector<WorstSample>& samples) {
  if (!isVisible()) {
    rows_stale_ = true;
    return;
  }
  rows_stale_ = false;
  const std::vector<std::string> features =
      info_ ? info_->data.feature_names : std::vector<std::string>{};
  const int fixed = 5;
  const std::size_t n_values = samples.empty() ? 0 : samples.front().raw.size();
  const int shown = static_cast<int>(std::min<std::size_t>(n_values, 20));  // the first 20 values
  worst_rows_->clear();
  worst_rows_->setColumnCount(fixed + shown);
  worst_rows_->setRowCount(static_cast<int>(samples.size()));
  QStringList headers{Tr::tr("Sample"), Tr::tr("True"), Tr::tr("Predicted"), Tr::tr("P(true)"),
                      Tr::tr("Loss")};
  for (int j = 0; j < shown; ++j)
    headers << (j < static_cast<int>(features.size())
                    ? QString::fromStdString(features[static_cast<std::size_t>(j)])
                    : QStringLiteral("x%1").arg(j));
  worst_rows_->setHorizontalHeaderLabels(headers);
  for (int r = 0; r < static_cast<int>(samples.size()); ++r) {
    const WorstSample& s = samples[static_cast<std::size_t>(r)];
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
  window_button_->setText(Tr::tr("Open in a window"));  // the accessible name; the icon shows
  window_button_->setToolButtonStyle(Qt::ToolButtonIconOnly);
  window_button_->setToolTip(Tr::tr("Open in a window") + QStringLiteral(": ") +
                             Tr::tr("This epoch's evaluation in a window of its own, large "
                                    "enough for the curves; training goes on here."));
  // Short titles: four tabs in a side tab of 1024x768; the tooltips say the rest.
  const std::pair<QWidget*, std::pair<QString, QString>> pages[] = {
      {samples_page_, {Tr::tr("Samples", "tab"), Tr::tr("The worst samples, or a clicked cell's")}},
      {class_table_, {Tr::tr("Classes"), Tr::tr("Precision, recall, F1, AP and ROC AUC per class")}},
      {pr_curves_, {Tr::tr("PR"), Tr::tr("Precision-recall curves")}},
      {roc_curves_, {Tr::tr("ROC"), Tr::tr("ROC curves")}}};
  for (const auto& [page, texts] : pages) {
    tabs_->setTabText(tabs_->indexOf(page), texts.first);
    tabs_->setTabToolTip(tabs_->indexOf(page), texts.second);
  }
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
    retranslateSamples();
    retranslateThreshold();
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
    // Short: the matrix's own titles say rows are true and columns predicted classes, and
    // every line here is a line less for its rows in a 1024x768 side tab.
    caption_->setText(Tr::tr("Validation after epoch %1: %2 of %3 samples right (%4).")
                          .arg(d.epoch)
                          .arg(right)
                          .arg(total)
                          .arg(percent(total > 0 ? static_cast<double>(right) / total : 0)));
    retranslateSamples();
    retranslateThreshold();
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
  if (d.n_classes > 0 && worst_stack_->currentWidget() == worst_rows_) showRows(shownSamples());
}

void EvaluationView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (rows_stale_ && detail_ && detail_->n_classes > 0 && worst_stack_->currentWidget() == worst_rows_)
    showRows(shownSamples());
}

void EvaluationView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

}  // namespace trainscope
