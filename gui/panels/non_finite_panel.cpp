#include "gui/panels/non_finite_panel.h"

#include "gui/plots/palette.h"
#include <QEvent>
#include <QPainter>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "gui/event_text.h"
#include "gui/finding_text.h"
#include "gui/tr.h"
#include "gui/widgets/presentation_state.h"
#include "gui/widgets/relative_font.h"

namespace trainscope {

NonFinitePanel::NonFinitePanel(RunCommands* controller, QWidget* parent)
    : QFrame(parent), controller_(controller) {
  setObjectName(QStringLiteral("nonFinitePanel"));
  setFrameShape(QFrame::NoFrame);  // paintEvent draws the warning frame
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 6, 8, 6);
  layout->setSpacing(3);
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("nonFiniteTitleLabel"));
  title_->setWordWrap(true);
  setRelativeFont(title_, 1, /*bold=*/true);
  evidence_ = new QLabel(this);
  evidence_->setObjectName(QStringLiteral("nonFiniteEvidenceLabel"));
  evidence_->setWordWrap(true);
  evidence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  causes_ = new QLabel(this);
  causes_->setObjectName(QStringLiteral("nonFiniteCausesLabel"));
  causes_->setWordWrap(true);
  causes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(title_);
  layout->addWidget(evidence_);
  layout->addWidget(causes_);
  // One action per row: the panel stands in the window's left column, beside the plots.
  auto* buttons = new QVBoxLayout;
  auto button = [&](const char* name) {
    auto* b = new QPushButton(this);
    b->setObjectName(QLatin1String(name));
    buttons->addWidget(b);
    return b;
  };
  lower_lr_ = button("nonFiniteLowerLrButton");
  clip_ = button("nonFiniteClipButton");
  continue_ = button("nonFiniteContinueButton");
  skip_ = button("nonFiniteSkipButton");
  stop_ = button("nonFiniteStopButton");
  layout->addLayout(buttons);
  connect(lower_lr_, &QPushButton::clicked, this, [this] { act(0.1, false); });
  connect(clip_, &QPushButton::clicked, this, [this] { act(1.0, true); });
  connect(continue_, &QPushButton::clicked, controller_, &RunCommands::resume);
  connect(skip_, &QPushButton::clicked, this, [this] {
    // "Continue anyway" would pause again at the next bad step: the policy changes first.
    if (controller_->setNonFinitePolicy(QStringLiteral("skip"))) controller_->resume();
  });
  connect(stop_, &QPushButton::clicked, controller_, &RunCommands::stop);
  connect(controller_->store(), &RunStore::eventOccurred, this, &NonFinitePanel::onEvent);
  connect(controller_, &RunCommands::stateChanged, this, &NonFinitePanel::onState);
  connect(controller_->store(), &RunStore::runStarted, this, [this] {
    pending_.reset();
    shown_.reset();
    hide();
  });
  hide();
  retranslate();
}

void NonFinitePanel::onEvent(const Event& e) {
  if (e.kind == EventKind::NonFinite || e.kind == EventKind::Diverged) {
    pending_ = e;
  } else if (e.kind == EventKind::Paused && pending_ && pending_->step == e.step &&
             controller_->state() == RunState::Paused) {
    // The engine paused on that step (policy "pause"): not a pause the user asked for later.
    shown_ = pending_;
    retranslate();
    show();
    emit shownForStep(e.step);
  }
}

void NonFinitePanel::onState(RunState state) {
  if (state == RunState::Paused) return;
  pending_.reset();
  shown_.reset();
  hide();
}

void NonFinitePanel::act(double lrFactor, bool clipping) {
  if (!shown_) return;
  // Back to the newest in-memory snapshot before the bad step: the weights are already bad
  // there, so changing a setting alone would pause again at the next step.
  controller_->rollBack(shown_->step, lrFactor, clipping);
}

void NonFinitePanel::changeEvent(QEvent* event) {
  // The font changes as presentation mode comes and goes: the compact form follows.
  if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) retranslate();
  QFrame::changeEvent(event);
}

void NonFinitePanel::retranslate() {
  // Presentation mode (1.5x texts in a narrow column at 1024x768): the title and short button
  // texts; the evidence and causes are in the Diagnosis tab and the events.
  const bool compact = presentationActive();
  evidence_->setVisible(!compact);
  causes_->setVisible(!compact);
  lower_lr_->setText(compact ? Tr::tr("lr ÷10, continue")
                             : Tr::tr("Lower the learning rate 10× and continue"));
  lower_lr_->setToolTip(
      Tr::tr("Go back to the newest snapshot before this step and continue "
             "with a learning rate 10 times lower."));
  clip_->setText(compact ? Tr::tr("Clip, continue") : Tr::tr("Turn clipping on and continue"));
  clip_->setToolTip(
      Tr::tr("Go back to the newest snapshot before this step and continue with "
             "gradient clipping on (max norm as set)."));
  continue_->setText(Tr::tr("Continue anyway"));
  continue_->setToolTip(
      Tr::tr("Continue with the same settings: the run pauses again at the next step whose "
             "loss or gradient is NaN or Inf."));
  skip_->setText(compact ? Tr::tr("Skip bad steps") : Tr::tr("Keep going, skip bad steps"));
  skip_->setToolTip(
      Tr::tr("Continue and skip every later step whose loss or gradient is NaN or Inf "
             "without pausing again (the weights stay those before the bad step; the skipped "
             "steps are marked on the plots). Sets \"When NaN/Inf\" in the settings to "
             "\"skip\"."));
  stop_->setText(Tr::tr("Stop"));
  skip_->setVisible(shown_ && shown_->kind == EventKind::NonFinite);
  if (!shown_) return;
  const Event& e = *shown_;
  const qlonglong step = e.step;
  title_->setText(
      e.kind == EventKind::Diverged
          ? Tr::tr("The run diverged at epoch %1 (step %2) and is paused.").arg(e.epoch).arg(step)
          : Tr::tr("Non-finite %1 at step %2 (epoch %3): the run is paused, the "
                   "weights are those before this step.")
                .arg(EventText::quantity(e.what))
                .arg(step)
                .arg(e.epoch));
  if (!e.evidence) {
    evidence_->setText(QString::fromStdString(e.message));
    causes_->clear();
    return;
  }
  const EventEvidence& x = *e.evidence;
  QStringList facts;
  facts << Tr::tr("Loss: %1").arg(EventText::number(x.loss));
  if (e.kind == EventKind::NonFinite)
    facts << Tr::tr("Total gradient norm: %1").arg(EventText::number(x.grad_norm));
  facts << Tr::tr("Learning rate: %1").arg(EventText::number(x.lr));
  QStringList layers;
  for (const auto& [name, norm] : x.layers)
    layers << QStringLiteral("%1 (%2)").arg(QString::fromStdString(name), EventText::number(norm));
  if (!layers.isEmpty())
    facts << (x.layers_non_finite ? Tr::tr("First non-finite gradient in: %1")
                                  : Tr::tr("Largest gradient in: %1"))
                 .arg(layers.join(QStringLiteral(", ")));
  evidence_->setText(facts.join(QStringLiteral(" · ")));
  QStringList causes;
  for (const Finding& c : x.causes) causes << QStringLiteral("• ") + FindingText::text(c);
  causes_->setText(Tr::tr("Likely causes (most likely first):") + QLatin1Char('\n') +
                   causes.join(QLatin1Char('\n')));
}

void NonFinitePanel::paintEvent(QPaintEvent*) {
  // A warning colour that reads in light and dark themes alike.
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(QPen(palette::kAlarm, 1));
  p.setBrush(palette::withAlpha(palette::kAlarm, 28));
  p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
}

}  // namespace trainscope
