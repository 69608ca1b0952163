#include "gui/teaching/lesson_panel.h"

#include "gui/plots/palette.h"
#include <QElapsedTimer>
#include <QEvent>
#include <QEventLoop>
#include <QTimer>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QPainter>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

#include "core/config/config_json.h"
#include "core/errors.h"
#include "gui/app/translations.h"
#include "gui/engine/run_commands.h"
#include "gui/model/run_store.h"
#include "gui/panels/run_controls_panel.h"
#include "gui/panels/settings_panel.h"
#include "gui/plots/plot_area.h"
#include "gui/tr.h"
#include "gui/widgets/hide_reasons.h"
#include "gui/widgets/relative_font.h"

namespace trainscope {
namespace {

const QString kReason = QStringLiteral("lesson");

/// The highlight: a thick orange frame drawn over the window around what a step looks at;
/// clicks pass through it.
class HighlightFrame : public QWidget {
 public:
  explicit HighlightFrame(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("lessonHighlight"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    hide();
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(palette::kHighlight, 4));  // seen on any projector
    p.drawRoundedRect(QRectF(rect()).adjusted(2, 2, -2, -2), 6, 6);
  }
};

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

LessonPanel::LessonPanel(const LessonHost& host, QWidget* parent)
    : QFrame(parent), host_(host) {
  setObjectName(QStringLiteral("lessonPanel"));
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  QPalette pal = palette();
  pal.setColor(QPalette::Window, palette::kNoteBackground);
  setPalette(pal);
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("lessonTitle"));
  setRelativeFont(title_, 1, /*bold=*/true);
  counter_ = new QLabel(this);
  counter_->setObjectName(QStringLiteral("lessonCounter"));
  text_ = new QLabel(this);
  text_->setObjectName(QStringLiteral("lessonText"));
  text_->setWordWrap(true);
  text_->setTextFormat(Qt::PlainText);
  question_ = new QLabel(this);
  question_->setObjectName(QStringLiteral("lessonQuestion"));
  question_->setWordWrap(true);
  question_->setTextFormat(Qt::PlainText);
  setRelativeFont(question_, 1, /*bold=*/false, /*italic=*/true);
  back_ = new QPushButton(this);
  back_->setObjectName(QStringLiteral("lessonBackButton"));
  next_ = new QPushButton(this);
  next_->setObjectName(QStringLiteral("lessonNextButton"));
  close_ = new QPushButton(this);
  close_->setObjectName(QStringLiteral("lessonCloseButton"));
  connect(back_, &QPushButton::clicked, this, &LessonPanel::back);
  connect(next_, &QPushButton::clicked, this, &LessonPanel::next);
  connect(close_, &QPushButton::clicked, this, &LessonPanel::close);
  title_->setWordWrap(true);
  auto* top = new QHBoxLayout;
  top->addWidget(title_, 1);
  top->addWidget(counter_, 0, Qt::AlignTop);
  // The question (when there is one) beside the buttons, the buttons at the right.
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(question_, 1);
  bottom->addWidget(back_, 0, Qt::AlignBottom);
  bottom->addWidget(next_, 0, Qt::AlignBottom);
  bottom->addWidget(close_, 0, Qt::AlignBottom);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 4, 8, 6);
  layout->setSpacing(2);
  layout->addLayout(top);
  layout->addWidget(text_);
  layout->addLayout(bottom);
  // Presentation clickers send PageDown / PageUp: window-wide while a lesson is open.
  for (const auto& [key, slot] : {std::pair{QKeySequence(Qt::Key_PageDown), &LessonPanel::next},
                                  std::pair{QKeySequence(Qt::Key_PageUp), &LessonPanel::back}}) {
    auto* s = new QShortcut(key, host_.window, nullptr, nullptr, Qt::WindowShortcut);
    s->setEnabled(false);
    connect(s, &QShortcut::activated, this, slot);
    keys_ << s;
  }
  frame_ = new HighlightFrame(host_.window);
  host_.window->installEventFilter(this);
  retranslate();
  hide();
}

LessonPanel::~LessonPanel() {
  if (host_.window) host_.window->removeEventFilter(this);
}

bool LessonPanel::open(const Lesson& lesson, QString* error) {
  if (host_.controller->isActive()) {
    if (error)
      *error = Tr::tr("A run is in progress: stop it before opening the lesson %1.")
                   .arg(qs(lesson.file.string()));
    return false;
  }
  TrainConfig config;
  try {
    config = configFromJson(lesson.config);
  } catch (const Error& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  if (lesson_) close();
  host_.settings->setConfig(config, qs(lesson.file.filename().string()));
  lesson_ = lesson;
  step_ = 0;
  for (QShortcut* k : keys_) k->setEnabled(true);
  show();
  emit lessonChanged();
  showStep(/*runActions=*/true);
  return true;
}

void LessonPanel::close() {
  if (!lesson_) return;
  if (revealed_)
    for (const QString& reason : revealed_reasons_) setHiddenFor(revealed_, reason, true);
  revealed_ = nullptr;
  revealed_reasons_.clear();
  applyParts(nullptr);
  if (target_) target_->removeEventFilter(this);
  target_ = nullptr;
  host_.plots->emphasize(nullptr);  // the user's split back
  frame_->hide();
  lesson_.reset();
  for (QShortcut* k : keys_) k->setEnabled(false);
  hide();
  emit lessonChanged();
}

void LessonPanel::next() {
  if (!lesson_ || step_ + 1 >= static_cast<int>(lesson_->steps.size())) return;
  ++step_;
  showStep(true);
}

void LessonPanel::refresh() {
  if (lesson_) showStep(false);
}

void LessonPanel::back() {
  if (!lesson_ || step_ == 0) return;
  --step_;
  showStep(false);
}

void LessonPanel::showStep(bool runActions) {
  const LessonStep& s = lesson_->steps[static_cast<size_t>(step_)];
  applyParts(&s);
  if (runActions)
    for (const LessonAction& a : s.actions) runAction(a);
  // A part the mode hides (presentation mode hides the settings and events) is shown while a
  // step looks at it, and hidden again after.
  if (target_) target_->removeEventFilter(this);
  if (revealed_)
    for (const QString& reason : revealed_reasons_) setHiddenFor(revealed_, reason, true);
  revealed_ = nullptr;
  revealed_reasons_.clear();
  target_ = s.look_at.empty() ? nullptr : viewFor(s.look_at);
  // The target or the part holding it (the gradient plot's tabs).
  for (QWidget* w = target_; w && w != host_.window; w = w->parentWidget()) {
    const QStringList reasons = w->property("trainscopeHiddenBy").toStringList();
    if (!w->isHidden() || reasons.isEmpty()) continue;
    if (!reasons.contains(kReason)) {  // not hidden by this lesson's own step
      revealed_ = w;
      revealed_reasons_ = reasons;
      for (const QString& reason : reasons) setHiddenFor(w, reason, false);
    }
    break;
  }
  if (target_) {
    host_.plots->showView(target_);  // a view in a tab comes to the front (others: no effect)
    target_->installEventFilter(this);
  }
  host_.plots->emphasize(target_);  // a bottom plot tall enough to read; else the user's split
  retranslate();
  placeFrame();
}

void LessonPanel::runAction(const LessonAction& a) {
  using K = LessonAction::Kind;
  using S = RunState;
  RunCommands* c = host_.controller;
  switch (a.kind) {
    case K::Set: {
      try {
        nlohmann::json j = configToJson(host_.settings->config());
        for (const auto& [key, value] : a.settings.items()) applySet(j, key + "=" + value.dump());
        const TrainConfig config = configFromJson(j);
        host_.settings->setConfig(config, qs(lesson_->file.filename().string()));
        if (c->isActive()) {  // what a run can change live, it changes now
          if (a.settings.contains("optimizer.lr")) c->setLearningRate(config.optimizer.lr);
          if (a.settings.contains("training.amp")) c->setAmp(config.training.amp);
          if (a.settings.contains("training.clip.enabled") ||
              a.settings.contains("training.clip.max_norm"))
            c->setClipping(config.training.clip.enabled, config.training.clip.max_norm);
        }
      } catch (const Error& e) {
        emit actionFailed(QString::fromUtf8(e.what()));
      }
      break;
    }
    case K::Start:
      stopAndWait();
      host_.start(false);
      break;
    case K::Pause:
      if (c->state() == S::Running) c->pause();
      break;
    case K::Resume:
      if (c->state() == S::Paused) c->resume();
      break;
    case K::Stop:
      stopAndWait();
      break;
    case K::StepBatch:
      if (c->isActive())
        c->stepBatch();
      else
        host_.start(true);
      break;
    case K::StepEpoch:
      if (c->isActive()) c->stepEpoch();
      break;
    case K::RunUntilEpoch:
      // A new run starts paused after its first batch, so that the pause is set before the
      // epoch can pass (a small model runs hundreds of epochs a second).
      if (!c->isActive() && !host_.start(true)) break;
      c->pauseAfterEpoch(a.epoch);
      if (c->state() == S::Paused) c->resume();
      break;
    case K::OpenView:
      if (QWidget* v = viewFor(a.view)) host_.plots->showView(v);
      break;
    case K::ClearGhost:
      c->clearGhost();
      break;
    case K::Sweep: {
      QString error;
      if (!host_.sweep || !host_.sweep(a.settings, &error)) emit actionFailed(error);
      break;
    }
  }
}

void LessonPanel::stopAndWait() {
  RunCommands* c = host_.controller;
  if (!c->isActive()) return;
  c->stop();
  // The engine ends the run at its next step boundary (milliseconds); the next action needs it
  // ended. The window keeps drawing meanwhile.
  QEventLoop loop;
  QTimer poll;
  QElapsedTimer waited;
  waited.start();
  connect(&poll, &QTimer::timeout, &loop, [&] {
    if (!c->isActive() || waited.elapsed() > 10000) loop.quit();
  });
  poll.start(10);
  loop.exec();
}

void LessonPanel::applyParts(const LessonStep* step) {
  for (const std::string& name : lessonPartNames()) {
    QWidget* part = partFor(name);
    if (!part) continue;
    const bool hidden = step && std::count(step->hide.begin(), step->hide.end(), name);
    setHiddenFor(part, kReason, hidden);
  }
  for (const QPointer<QWidget>& w : locked_)
    if (w) w->setEnabled(true);
  locked_.clear();
  if (step)
    for (const std::string& name : step->lock)
      if (QWidget* part = partFor(name); part && part->isEnabled()) {
        part->setEnabled(false);
        locked_ << part;
      }
}

QWidget* LessonPanel::partFor(const std::string& name) const {
  if (name == "settings") return host_.settings_column;
  if (name == "events") return host_.events;
  if (name == "run_controls") return host_.controls;
  if (name == "bottom_plots") return host_.plots->bottomViews();
  if (name == "side_views") return host_.plots->sideViews();
  return nullptr;
}

QWidget* LessonPanel::viewFor(const std::string& name) const {
  if (name == "events") return host_.events;
  if (name == "settings") return host_.settings_column;
  if (name == "run_controls") return host_.controls;
  if (name == "status") return host_.status;
  return host_.plots->view(qs(name));
}

void LessonPanel::placeFrame() {
  if (!target_ || !target_->isVisible() || !lesson_) {
    frame_->hide();
    return;
  }
  const QPoint at = target_->mapTo(host_.window, QPoint(0, 0));
  frame_->setGeometry(QRect(at, target_->size()).adjusted(-2, -2, 2, 2));
  frame_->show();
  frame_->raise();
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event) {
  switch (event->type()) {
    case QEvent::Resize:
    case QEvent::Move:
    case QEvent::Show:
    case QEvent::Hide:
    case QEvent::LayoutRequest:
      if (watched == target_ || watched == host_.window) placeFrame();
      break;
    default:
      break;
  }
  return QFrame::eventFilter(watched, event);
}

void LessonPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QFrame::changeEvent(event);
}

void LessonPanel::retranslate() {
  back_->setText(Tr::tr("Back"));
  back_->setToolTip(Tr::tr("The previous step (Page Up). Its actions are not run again."));
  next_->setText(Tr::tr("Next"));
  next_->setToolTip(Tr::tr("The next step and what it does (Page Down)."));
  close_->setText(Tr::tr("Close lesson"));
  if (!lesson_) return;
  const std::string lang = languageCode(QLocale()).toStdString();
  const LessonStep& s = lesson_->steps[static_cast<size_t>(step_)];
  title_->setText(qs(lesson_->title.in(lang)));
  counter_->setText(Tr::tr("Step %1 of %2").arg(step_ + 1).arg(lesson_->steps.size()));
  text_->setText(qs(s.text.in(lang)));
  question_->setText(s.question.empty()
                         ? QString()
                         : Tr::tr("Question for the class: %1").arg(qs(s.question.in(lang))));
  // Kept in the layout when empty: the buttons stay at the right.
  back_->setEnabled(step_ > 0);
  next_->setEnabled(step_ + 1 < static_cast<int>(lesson_->steps.size()));
}

}  // namespace trainscope
