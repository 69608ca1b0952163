#include "gui/views/lr_find_dialog.h"

#include <qcustomplot.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>
#include <exception>

#include "gui/event_text.h"
#include "gui/tr.h"

namespace trainscope {

LrFindDialog::LrFindDialog(const TrainConfig& config, QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("lrFindDialog"));
  resize(640, 440);
  auto* layout = new QVBoxLayout(this);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("lrFindStatusLabel"));
  status_->setWordWrap(true);
  layout->addWidget(status_);
  plot_ = new QCustomPlot(this);
  plot_->setObjectName(QStringLiteral("lrFindPlot"));
  plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
  plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
  plot_->xAxis->setNumberFormat(QStringLiteral("eb"));
  plot_->xAxis->setNumberPrecision(0);
  QColor raw(31, 119, 180, 90);
  plot_->addGraph()->setPen(QPen(raw, 1));
  plot_->addGraph()->setPen(QPen(QColor(31, 119, 180), 2.2));
  plot_->legend->setVisible(true);
  plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignHCenter);
  layout->addWidget(plot_, 1);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch(1);
  use_ = new QPushButton(this);
  use_->setObjectName(QStringLiteral("lrFindUseButton"));
  use_->setEnabled(false);
  close_ = new QPushButton(this);
  close_->setObjectName(QStringLiteral("lrFindCloseButton"));
  buttons->addWidget(use_);
  buttons->addWidget(close_);
  layout->addLayout(buttons);
  connect(close_, &QPushButton::clicked, this, &QDialog::reject);
  connect(use_, &QPushButton::clicked, this, [this] {
    if (result_ && result_->suggested_lr > 0) emit learningRateChosen(result_->suggested_lr);
    accept();
  });
  retranslate();

  // The sweep trains a throwaway model: on a thread of its own, the result comes back queued.
  // The destructor joins the thread before the QObject goes, so the queued call never outlives
  // this dialog.
  worker_ = std::thread([this, config] {
    try {
      LrFinderResult r = findLearningRate(config, LrFinderOptions{});
      QMetaObject::invokeMethod(
          this, [this, r] { onResult(r); }, Qt::QueuedConnection);
    } catch (const std::exception& ex) {
      const QString text = QString::fromUtf8(ex.what());
      QMetaObject::invokeMethod(
          this, [this, text] { onError(text); }, Qt::QueuedConnection);
    }
  });
}

LrFindDialog::~LrFindDialog() {
  if (worker_.joinable()) worker_.join();
}

void LrFindDialog::onResult(const LrFinderResult& result) {
  running_ = false;
  result_ = result;
  QVector<double> lr, loss, smooth;
  double lo = 0, hi = 0;
  bool any = false;
  const std::size_t n = result.points.size();
  for (std::size_t i = 0; i < n; ++i) {
    const LrFinderPoint& p = result.points[i];
    lr.append(p.lr);
    loss.append(p.loss);
    smooth.append(p.smoothed_loss);
    // The value range follows the smoothed curve, the diverged last point left out.
    if (std::isfinite(p.smoothed_loss) && !(result.stopped_early && i + 1 == n && n > 2)) {
      lo = any ? std::min(lo, p.smoothed_loss) : p.smoothed_loss;
      hi = any ? std::max(hi, p.smoothed_loss) : p.smoothed_loss;
      any = true;
    }
  }
  plot_->graph(0)->setData(lr, loss, true);
  plot_->graph(1)->setData(lr, smooth, true);
  if (!lr.isEmpty()) plot_->xAxis->setRange(lr.front(), lr.back());
  if (any) {
    const double pad = std::max(0.1 * (hi - lo), 1e-6);
    plot_->yAxis->setRange(lo - pad, hi + pad);
  }
  if (result.suggested_lr > 0) {
    marked_lr_ = result.suggested_lr;
    auto* line = new QCPItemStraightLine(plot_);
    line->setPen(QPen(QColor(214, 39, 40), 1.8, Qt::DashLine));
    line->point1->setCoords(marked_lr_, 0);
    line->point2->setCoords(marked_lr_, 1);
    auto* label = new QCPItemText(plot_);
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(marked_lr_, 0.04);
    // Right of the line in the left half of the (log) axis, left of it further right.
    const double frac = lr.size() > 1 && lr.back() > lr.front()
                            ? std::log(marked_lr_ / lr.front()) / std::log(lr.back() / lr.front())
                            : 0.0;
    label->setPositionAlignment((frac > 0.5 ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    label->setColor(QColor(214, 39, 40).darker(120));
    label->setBrush(QColor(255, 255, 255, 210));
    label->setText(Tr::tr("suggested %1").arg(EventText::number(marked_lr_)));
  }
  use_->setEnabled(result.suggested_lr > 0);
  retranslate();
  plot_->replot();
  emit finished();
}

void LrFindDialog::onError(const QString& error) {
  running_ = false;
  error_ = error;
  retranslate();
  emit finished();
}

void LrFindDialog::retranslate() {
  setWindowTitle(Tr::tr("Learning-rate range test"));
  plot_->xAxis->setLabel(Tr::tr("Learning rate (log scale)"));
  plot_->yAxis->setLabel(Tr::tr("Training loss"));
  plot_->graph(0)->setName(Tr::tr("Loss per step"));
  plot_->graph(1)->setName(Tr::tr("Smoothed loss"));
  use_->setText(Tr::tr("Use this learning rate"));
  close_->setText(Tr::tr("Close"));
  if (running_) {
    status_->setText(
        Tr::tr("Training a copy of the model with the current settings while the learning rate "
               "grows from 1e-7 to 10 over 100 steps…"));
  } else if (!error_.isEmpty()) {
    status_->setText(Tr::tr("The range test failed: %1").arg(error_));
  } else if (result_ && result_->suggested_lr > 0) {
    status_->setText(
        Tr::tr("Suggested learning rate: %1, where the smoothed loss falls fastest. Loss "
               "rises again where the learning rate is too large.")
            .arg(EventText::number(result_->suggested_lr)));
  } else {
    status_->setText(Tr::tr("Too few steps for a suggestion."));
  }
}

}  // namespace trainscope
