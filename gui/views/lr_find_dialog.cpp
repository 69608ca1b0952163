#include "gui/views/lr_find_dialog.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <exception>

#include "core/config/train_config.h"
#include "gui/event_text.h"
#include "gui/plots/lr_find_plot.h"
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
  plot_ = new LrFindPlot(this);
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
  plot_->showResult(result);  // the plots layer draws it, by series name
  marked_lr_ = plot_->markedLr();
  use_->setEnabled(result.suggested_lr > 0);
  retranslate();
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
