#include "gui/panels/events_panel.h"

#include "gui/plots/palette.h"
#include <QListWidget>
#include <QStyle>
#include <QTime>
#include <QTimer>
#include <QVBoxLayout>

#include "gui/tr.h"

namespace trainscope {

EventsPanel::EventsPanel(QWidget* parent) : QGroupBox(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("eventsPanel"));
  list_->setWordWrap(true);
  list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  list_->setMinimumHeight(60);
  layout->addWidget(list_);
  retranslate();
}

void EventsPanel::retranslate() {
  setTitle(Tr::tr("Events"));
  list_->setToolTip(
      Tr::tr("What happened during the run. Repeated events are folded into one line; "
             "every event is in the run folder's events.jsonl."));
  for (std::size_t i = 0; i < lines_.size(); ++i)
    list_->item(static_cast<int>(i))->setText(textOf(lines_[i]));
}

int EventsPanel::lineCount() const { return list_->count(); }

QString EventsPanel::lineText(int row) const {
  const QListWidgetItem* item = list_->item(row);
  return item ? item->text() : QString();
}

QString EventsPanel::textOf(const Line& line) const {
  QString text =
      line.time.isEmpty() ? line.render() : QStringLiteral("%1  %2").arg(line.time, line.render());
  // An overfitting line shows its latest onset only: each report supersedes the one before (a
  // new validation minimum moved the onset), so a step range and count would only confuse.
  if (line.count > 1 && !line.fold_key.startsWith(QLatin1String("overfitting/"))) {
    text += QLatin1Char(' ') + Tr::tr("(steps %1–%2, %n time(s))", nullptr, line.count)
                                   .arg(line.first_step)
                                   .arg(line.last_step);
  }
  return text;
}

void EventsPanel::addLine(const QString& text, EventText::Severity severity) {
  addLine([text] { return text; }, severity);
}

void EventsPanel::addLine(Render render, EventText::Severity severity, const QString& foldKey,
                          qint64 step) {
  const QString now =
      past_run_ ? QString() : QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
  if (!foldKey.isEmpty() && !lines_.empty() && lines_.back().fold_key == foldKey) {
    Line& last = lines_.back();
    last.render = std::move(render);  // the newest event's text, with the repeats counted
    last.time = now;
    last.last_step = step;
    ++last.count;
    list_->item(list_->count() - 1)->setText(textOf(last));
    return;
  }
  lines_.push_back(Line{std::move(render), now, foldKey, step, step, 1});
  auto* item = new QListWidgetItem(textOf(lines_.back()));
  switch (severity) {
    case EventText::Severity::Info:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxInformation));
      break;
    case EventText::Severity::Success:
      item->setIcon(style()->standardIcon(QStyle::SP_DialogApplyButton));
      break;
    case EventText::Severity::Warning:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
      item->setForeground(palette::kWarningText);
      break;
    case EventText::Severity::Error:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxCritical));
      item->setForeground(palette::kErrorText);
      break;
  }
  list_->addItem(item);
  while (list_->count() > kMaxLines) {
    delete list_->takeItem(0);
    lines_.pop_front();
  }
  scrollToBottomSoon();
}

void EventsPanel::scrollToBottomSoon() {
  // scrollToBottom() lays every line out again (word-wrapped texts): once per turn of the
  // event loop, not once per event of a batch.
  if (scroll_pending_) return;
  scroll_pending_ = true;
  QTimer::singleShot(0, this, [this] {
    scroll_pending_ = false;
    list_->scrollToBottom();
  });
}

void EventsPanel::addEvent(const Event& event) {
  EventText::Severity severity = EventText::Severity::Info;
  if (EventText::forEvent(event, &severity).isEmpty()) return;
  addLine([event] { return EventText::forEvent(event, nullptr); }, severity,
          EventText::foldKey(event), event.step);
}

}  // namespace trainscope
