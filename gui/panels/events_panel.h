#pragma once
/// The events panel: what happened in the run, newest last, repeated events folded.
#include <QGroupBox>
#include <deque>
#include <functional>

#include "gui/event_text.h"

class QListWidget;

namespace trainscope {

/// A bounded list of event lines (the full record is events.jsonl). An event with the same
/// fold key as the line above it does not add a line: that line shows the newest text and
/// counts the repeats with their step range ("steps 6–300, 295 times"). objectName
/// `eventsPanel` is on the list itself.
class EventsPanel : public QGroupBox {
  Q_OBJECT
 public:
  /// At most this many lines are kept; the oldest go first.
  static constexpr int kMaxLines = 500;

  explicit EventsPanel(QWidget* parent = nullptr);

  /// Builds a line's text in the current language (called again when the language changes).
  using Render = std::function<QString()>;
  /// Adds a line stamped with the wall-clock time. A non-empty `foldKey` equal to the last
  /// line's folds this event into it; `step` (>= 0) is the event's step for the fold's range.
  void addLine(Render render, EventText::Severity severity, const QString& foldKey = {},
               qint64 step = -1);
  /// A line whose text never changes with the language.
  void addLine(const QString& text, EventText::Severity severity);
  /// Adds the line for an engine event (nothing for kinds shown another way); events of the
  /// same kind and quantity in a row fold into one line.
  void addEvent(const Event& event);
  /// While on, lines get no wall-clock time: the events of a past run shown from its folder
  /// (events.jsonl records no times, and now is not when they happened).
  void setPastRun(bool on) { past_run_ = on; }
  /// Number of lines shown.
  int lineCount() const;
  /// The text of line `row` (0 = oldest shown).
  QString lineText(int row) const;
  /// Sets every text, the lines already shown included, in the current language.
  void retranslate();

 private:
  /// Scrolls to the newest line at the next turn of the event loop (once for a batch).
  void scrollToBottomSoon();
  bool scroll_pending_ = false;
  bool past_run_ = false;
  struct Line {
    Render render;
    QString time;
    QString fold_key;
    qint64 first_step = 0, last_step = 0;
    int count = 1;
  };
  QString textOf(const Line& line) const;

  QListWidget* list_ = nullptr;
  std::deque<Line> lines_;  ///< one per list item, same order
};

}  // namespace trainscope
