#include "gui/panels/events_panel.h"

#include <QListWidget>
#include <QStyle>
#include <QTime>
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
}

int EventsPanel::lineCount() const { return list_->count(); }

QString EventsPanel::lineText(int row) const {
  const QListWidgetItem* item = list_->item(row);
  return item ? item->text() : QString();
}

void EventsPanel::addLine(const QString& text, EventText::Severity severity, const QString& foldKey,
                          qint64 step) {
  const QString now = QTime::currentTime().toString(QStringLiteral("HH:mm:ss"));
  if (!foldKey.isEmpty() && foldKey == fold_key_ && list_->count() > 0) {
    ++fold_count_;
    QListWidgetItem* last = list_->item(list_->count() - 1);
    last->setText(
        QStringLiteral("%1  %2 ").arg(now, text) +
        Tr::tr("(steps %1–%2, %n time(s))", nullptr, fold_count_).arg(fold_first_step_).arg(step));
    return;
  }
  fold_key_ = foldKey;
  fold_first_step_ = step;
  fold_count_ = 1;
  auto* item = new QListWidgetItem(QStringLiteral("%1  %2").arg(now, text));
  switch (severity) {
    case EventText::Severity::Info:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxInformation));
      break;
    case EventText::Severity::Success:
      item->setIcon(style()->standardIcon(QStyle::SP_DialogApplyButton));
      break;
    case EventText::Severity::Warning:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
      item->setForeground(QColor(170, 90, 0));
      break;
    case EventText::Severity::Error:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxCritical));
      item->setForeground(QColor(180, 0, 0));
      break;
  }
  list_->addItem(item);
  while (list_->count() > kMaxLines) delete list_->takeItem(0);
  list_->scrollToBottom();
}

void EventsPanel::addEvent(const Event& event) {
  EventText::Severity severity = EventText::Severity::Info;
  const QString text = EventText::forEvent(event, &severity);
  if (text.isEmpty()) return;
  addLine(text, severity, EventText::foldKey(event), event.step);
}

}  // namespace trainscope
