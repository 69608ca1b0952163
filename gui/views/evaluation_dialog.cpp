#include "gui/views/evaluation_dialog.h"

#include "gui/plots/palette.h"
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QThreadPool>
#include <QVBoxLayout>
#include <memory>

#include "core/train/probes/evaluation.h"
#include "gui/tr.h"
#include "gui/views/evaluation_view.h"

namespace trainscope {

EvaluationDialog::EvaluationDialog(const QString& checkpoint, QWidget* parent)
    : QDialog(parent), checkpoint_(checkpoint) {
  setObjectName(QStringLiteral("evaluationDialog"));
  setWindowTitle(Tr::tr("Evaluate %1").arg(QFileInfo(checkpoint).fileName()));
  resize(640, 560);
  auto* layout = new QVBoxLayout(this);
  auto* row = new QHBoxLayout;
  auto* label = new QLabel(Tr::tr("Split:"), this);
  split_ = new QComboBox(this);
  split_->setObjectName(QStringLiteral("evaluationSplitComboBox"));
  split_->addItem(Tr::tr("validation"), QStringLiteral("val"));
  split_->addItem(Tr::tr("test"), QStringLiteral("test"));
  split_->addItem(Tr::tr("training"), QStringLiteral("train"));
  run_ = new QPushButton(Tr::tr("Evaluate"), this);
  run_->setObjectName(QStringLiteral("evaluateButton"));
  row->addWidget(label);
  row->addWidget(split_);
  row->addWidget(run_);
  row->addStretch(1);
  layout->addLayout(row);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("evaluationStatusLabel"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(status_);
  view_ = new EvaluationView(this);
  layout->addWidget(view_, 1);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  connect(run_, &QPushButton::clicked, this, &EvaluationDialog::evaluate);
  evaluate();
}

void EvaluationDialog::evaluate() {
  const int gen = ++generation_;
  EvaluationRequest request;
  request.checkpoint = checkpoint_.toStdString();
  request.split = split_->currentData().toString().toStdString();
  run_->setEnabled(false);
  status_->setText(Tr::tr("Evaluating %1 on the %2 split…")
                       .arg(QFileInfo(checkpoint_).fileName(), split_->currentText()));
  QPointer<EvaluationDialog> self(this);
  QThreadPool::globalInstance()->start([self, gen, request] {
    std::shared_ptr<EvaluationResult> result;
    QString error;
    try {
      result = std::make_shared<EvaluationResult>(evaluateCheckpoint(request));
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    QMetaObject::invokeMethod(
        qApp, [self, gen, result, error] {
          if (self) self->showResult(gen, result.get(), error);
        },
        Qt::QueuedConnection);
  });
}

void EvaluationDialog::showResult(int generation, const EvaluationResult* r, const QString& error) {
  if (generation != generation_) return;
  run_->setEnabled(true);
  error_ = error;
  if (!r) {
    status_->setText(QStringLiteral("<span style='color:%2'>%1</span>")
                         .arg(Tr::tr("Cannot evaluate: %1").arg(error.toHtmlEscaped()),
                              palette::css(palette::kErrorText)));
    emit finished(false);
    return;
  }
  status_->setText(QString());
  view_->showEvaluation(*r);
  emit finished(true);
}

}  // namespace trainscope
