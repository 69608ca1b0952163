#include "gui/panels/diagnosis_panel.h"

#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "gui/model/run_store.h"
#include "gui/event_text.h"
#include "gui/finding_text.h"
#include "gui/tr.h"
#include "gui/widgets/relative_font.h"

namespace trainscope {

DiagnosisPanel::DiagnosisPanel(const RunStore* store, QWidget* parent)
    : QWidget(parent), store_(store) {
  setObjectName(QStringLiteral("diagnosisPanel"));
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(8, 6, 8, 6);
  kind_ = new QLabel(content);
  kind_->setObjectName(QStringLiteral("diagnosisKindLabel"));
  kind_->setWordWrap(true);
  setRelativeFont(kind_, 1.15, /*bold=*/true);  // follows presentation mode's larger texts
  body_ = new QLabel(content);
  body_->setObjectName(QStringLiteral("diagnosisBodyLabel"));
  body_->setWordWrap(true);
  body_->setTextFormat(Qt::RichText);
  body_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  body_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  // A narrow side tab: the labels take the tab's width and wrap, whatever their longest word.
  for (QLabel* label : {kind_, body_})
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  layout->addWidget(kind_);
  layout->addWidget(body_);
  layout->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  // The texts wrap to the tab's width (a narrow side tab at 1024x768) instead of scrolling.
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);
  connect(store_, &RunStore::diagnosisChanged, this, &DiagnosisPanel::retranslate);
  connect(store_, &RunStore::runStarted, this, &DiagnosisPanel::retranslate);
  retranslate();
}

void DiagnosisPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void DiagnosisPanel::retranslate() {
  const auto& d = store_->lastDiagnosis();
  if (!d) {
    kind_->setText(Tr::tr("Diagnosis: %1").arg(EventText::diagnosisKind("too_early")));
    body_->setText(
        Tr::tr("The loss doctor reads the run's loss curves after a few epochs and "
               "names one of: gradients accumulating, diverging, no signal in the data, flat "
               "from the start, stalled at a plateau, overfitting, or healthy – with its "
               "evidence and what to check."));
    return;
  }
  // Epoch 0: read on a step before the first epoch ended (a non-finite step).
  kind_->setText(
      d->epoch > 0
          ? Tr::tr("Diagnosis at epoch %1: %2").arg(d->epoch).arg(EventText::diagnosisKind(d->kind))
          : Tr::tr("Diagnosis: %1").arg(EventText::diagnosisKind(d->kind)));
  auto list = [](const std::vector<Finding>& items, const char* tag) {
    QString html = QStringLiteral("<%1 style=\"margin-top:2px\">").arg(QLatin1String(tag));
    for (const Finding& f : items)
      html += QStringLiteral("<li>%1</li>").arg(FindingText::text(f).toHtmlEscaped());
    return html + QStringLiteral("</%1>").arg(QLatin1String(tag));
  };
  QString html =
      QStringLiteral("<p>%1</p>").arg(FindingText::diagnosisSummary(*d).toHtmlEscaped());
  if (!d->evidence.empty())
    html += QStringLiteral("<b>%1</b>").arg(Tr::tr("Evidence")) + list(d->evidence, "ul");
  if (!d->checks.empty())
    html += QStringLiteral("<b>%1</b>").arg(Tr::tr("What to check, most likely first")) +
            list(d->checks, "ol");
  body_->setText(html);
}

}  // namespace trainscope
