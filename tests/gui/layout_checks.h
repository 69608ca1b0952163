#pragma once
// Checks that no text of a window is clipped or overlaps, for tst_layout: widget texts against
// their rectangles (QFontMetrics), visible sibling widgets against each other, and QCustomPlot
// tick labels, axis titles and text items against each other and their axis rect.
#include <qcustomplot.h>

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTextDocument>
#include <QWidget>

namespace layout_checks {

/// "ClassName 'objectName' under 'parent name'" for messages.
inline QString describe(const QWidget* w) {
  QString path;
  for (const QWidget* p = w->parentWidget(); p && path.count(QLatin1Char('/')) < 3;
       p = p->parentWidget())
    if (!p->objectName().isEmpty() && !p->objectName().startsWith(QLatin1String("qt_")))
      path = p->objectName() + QLatin1Char('/') + path;
  return QStringLiteral("%1 '%2' in %3")
      .arg(QLatin1String(w->metaObject()->className()), w->objectName(), path);
}

/// The text without mnemonic ampersands ("&Start" -> "Start", "&&" -> "&").
inline QString withoutMnemonic(QString text) {
  text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
  text.remove(QLatin1Char('&'));
  text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
  return text;
}

/// Widest line of `text` in `fm`.
inline int textWidth(const QFontMetrics& fm, const QString& text) {
  int w = 0;
  for (const QString& line : text.split(QLatin1Char('\n')))
    w = std::max(w, fm.horizontalAdvance(line));
  return w;
}

/// The widget's rectangle runs past the left or right edge of an ancestor (a scroll area's
/// viewport, a column narrower than its content): its text is cut there. Vertical scrolling is
/// allowed; horizontal clipping is not.
inline bool cutAtTheSide(const QWidget* w, const QWidget* root) {
  QRect r = w->rect();
  for (const QWidget* c = w; c != root && c->parentWidget() && !c->isWindow();
       c = c->parentWidget()) {
    r.translate(c->pos());
    if (r.left() < -1 || r.right() > c->parentWidget()->width() + 1) return true;
  }
  return false;
}

/// Texts of visible labels, buttons, tab bars, combo and spin boxes under `root` that do not fit
/// their widget or are cut at the side by an ancestor. A label that is elided by design (horizontal
/// policy Ignored) counts as fitting when its tooltip holds its whole text.
inline void checkTexts(QWidget* root, QStringList* problems) {
  for (QWidget* w : root->findChildren<QWidget*>()) {
    if (!w->isVisible() || w->isWindow() || w->width() <= 0) continue;
    const bool has_text =
        (qobject_cast<QLabel*>(w) && !static_cast<QLabel*>(w)->text().isEmpty()) ||
        (qobject_cast<QAbstractButton*>(w) &&
         !static_cast<QAbstractButton*>(w)->text().isEmpty()) ||
        qobject_cast<QComboBox*>(w) || qobject_cast<QAbstractSpinBox*>(w);
    if (has_text && cutAtTheSide(w, root)) {
      *problems << QStringLiteral("%1: cut at the side (%2 px wide at x %3 of its window)")
                       .arg(describe(w))
                       .arg(w->width())
                       .arg(w->mapTo(w->window(), QPoint()).x());
      continue;
    }
    if (auto* l = qobject_cast<QLabel*>(w)) {
      const QString text = l->text();
      if (text.isEmpty() || !l->pixmap().isNull()) continue;
      if (l->sizePolicy().horizontalPolicy() == QSizePolicy::Ignored && l->toolTip() == text)
        continue;
      const QRect r = l->contentsRect();
      const bool rich = l->textFormat() == Qt::RichText ||
                        (l->textFormat() == Qt::AutoText && Qt::mightBeRichText(text));
      if (l->wordWrap() || rich) {
        const int need = l->heightForWidth(l->width());
        if (need > l->height() + 1)
          *problems << QStringLiteral("%1: text \"%2\" needs %3 px height, has %4")
                           .arg(describe(l), text.left(60))
                           .arg(need)
                           .arg(l->height());
      } else {
        const int need =
            textWidth(l->fontMetrics(), withoutMnemonic(text)) + 2 * l->margin() + l->indent() * 0;
        if (need > r.width() + 1)
          *problems << QStringLiteral("%1: text \"%2\" needs %3 px, has %4")
                           .arg(describe(l), text.left(60))
                           .arg(need)
                           .arg(r.width());
      }
    } else if (auto* b = qobject_cast<QAbstractButton*>(w)) {
      if (b->text().isEmpty()) continue;
      const QSize hint = b->sizeHint();
      if (hint.width() > b->width() + 1 || hint.height() > b->height() + 1)
        *problems << QStringLiteral("%1: text \"%2\" needs %3x%4 px, has %5x%6")
                         .arg(describe(b), b->text())
                         .arg(hint.width())
                         .arg(hint.height())
                         .arg(b->width())
                         .arg(b->height());
    } else if (auto* t = qobject_cast<QTabBar*>(w)) {
      if (t->count() == 0) continue;
      // Every tab at its full width, with no scroll arrows: the bar's hint fits.
      if (t->sizeHint().width() > t->width() + 1)
        *problems << QStringLiteral("%1: %2 tabs need %3 px, have %4 (scroll arrows)")
                         .arg(describe(t))
                         .arg(t->count())
                         .arg(t->sizeHint().width())
                         .arg(t->width());
      for (int i = 0; i < t->count(); ++i)
        if (t->tabRect(i).width() <
            t->fontMetrics().horizontalAdvance(withoutMnemonic(t->tabText(i))) + 4)
          *problems << QStringLiteral("%1: tab \"%2\" cut").arg(describe(t), t->tabText(i));
    } else if (auto* c = qobject_cast<QComboBox*>(w)) {
      if (c->currentText().isEmpty()) continue;
      QStyleOptionComboBox opt;
      opt.initFrom(c);
      opt.editable = c->isEditable();
      const QRect field =
          c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c);
      const int need = c->fontMetrics().horizontalAdvance(c->currentText());
      if (need > field.width() + 1)
        *problems << QStringLiteral("%1: \"%2\" needs %3 px, has %4")
                         .arg(describe(c), c->currentText())
                         .arg(need)
                         .arg(field.width());
    } else if (auto* s = qobject_cast<QAbstractSpinBox*>(w)) {
      const QLineEdit* edit = s->findChild<QLineEdit*>();
      if (!edit || s->text().isEmpty()) continue;
      const int need = s->fontMetrics().horizontalAdvance(s->text());
      if (need > edit->width())
        *problems << QStringLiteral("%1: \"%2\" needs %3 px, has %4")
                         .arg(describe(s), s->text())
                         .arg(need)
                         .arg(edit->width());
    }
  }
}

/// Visible sibling widgets under `root` whose rectangles overlap. Overlays drawn over the
/// window on purpose and transparent to the mouse (a lesson's highlight frame) are left out.
inline void checkOverlaps(QWidget* root, QStringList* problems) {
  QList<QWidget*> parents = root->findChildren<QWidget*>();
  parents.prepend(root);
  for (QWidget* p : parents) {
    if (!p->isVisible()) continue;
    QList<QWidget*> kids;
    for (QObject* o : p->children()) {
      auto* k = qobject_cast<QWidget*>(o);
      if (k && k->isVisible() && !k->isWindow() && !k->geometry().isEmpty() &&
          !k->testAttribute(Qt::WA_TransparentForMouseEvents))
        kids << k;
    }
    for (int i = 0; i < kids.size(); ++i)
      for (int j = i + 1; j < kids.size(); ++j)
        if (kids[i]->geometry().intersects(kids[j]->geometry()))
          *problems << QStringLiteral("%1 overlaps %2").arg(describe(kids[i]), describe(kids[j]));
  }
}

/// The rectangles of an axis' visible tick labels, as QCustomPlot lays them out (centred on
/// the tick, horizontal text).
inline QVector<QRect> tickLabelRects(QCPAxis* axis) {
  QVector<QRect> out;
  if (!axis->visible() || !axis->tickLabels()) return out;
  const QFontMetrics fm(axis->tickLabelFont());
  const QVector<double> ticks = axis->tickVector();
  const QVector<QString> labels = axis->tickVectorLabels();
  const QCPRange range = axis->range();
  for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
    if (ticks[i] < range.lower || ticks[i] > range.upper || labels[i].isEmpty()) continue;
    // "1.5·10^3" (beautiful powers) is drawn as "1.5·10" with a smaller exponent: its width is
    // about that of the text without the caret.
    QString text = labels[i];
    text.remove(QLatin1Char('^'));
    const int w = fm.horizontalAdvance(text), h = fm.height();
    const int at = qRound(axis->coordToPixel(ticks[i]));
    if (axis->orientation() == Qt::Horizontal) {
      out << QRect(at - w / 2, 0, w, h);
    } else {
      out << QRect(0, at - h / 2, w, h);
    }
  }
  return out;
}

/// The rectangle QCPItemText draws `item` in (pixels of its plot).
inline QRectF textItemRect(QCPItemText* item) {
  const QFontMetricsF fm(item->font());
  const QSizeF size =
      fm.size(0, item->text()) + QSizeF(item->padding().left() + item->padding().right(),
                                        item->padding().top() + item->padding().bottom());
  const QPointF p = item->position->pixelPosition();
  QRectF r(p, size);
  const Qt::Alignment a = item->positionAlignment();
  if (a & Qt::AlignRight) r.moveRight(p.x());
  if (a & Qt::AlignHCenter) r.moveLeft(p.x() - size.width() / 2);
  if (a & Qt::AlignBottom) r.moveBottom(p.y());
  if (a & Qt::AlignVCenter) r.moveTop(p.y() - size.height() / 2);
  return r;
}

/// Tick labels that overlap, axis titles longer than their axis, text items outside the axis
/// rect, over one another or crossed by a vertical line, in the visible plots under `root`.
inline void checkPlots(QWidget* root, QStringList* problems) {
  QList<QCustomPlot*> plots = root->findChildren<QCustomPlot*>();
  if (auto* self = qobject_cast<QCustomPlot*>(root)) plots.prepend(self);
  for (QCustomPlot* plot : plots) {
    if (!plot->isVisible() || plot->width() <= 0) continue;
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QString name = describe(plot);
    for (QCPAxisRect* rect : plot->axisRects()) {
      for (QCPAxis* axis : rect->axes()) {
        if (!axis->visible()) continue;
        const QVector<QRect> labels = tickLabelRects(axis);
        const bool horizontal = axis->orientation() == Qt::Horizontal;
        for (int i = 1; i < labels.size(); ++i) {
          const QRect& a = labels[i - 1];
          const QRect& b = labels[i];
          const int gap = horizontal ? std::max(b.left() - a.right(), a.left() - b.right())
                                     : std::max(b.top() - a.bottom(), a.top() - b.bottom());
          if (gap < 3)
            *problems << QStringLiteral("%1: %2 axis tick labels %3 and %4 overlap (gap %5 px)")
                             .arg(name, horizontal ? QStringLiteral("x") : QStringLiteral("y"),
                                  axis->tickVectorLabels().value(i - 1),
                                  axis->tickVectorLabels().value(i))
                             .arg(gap);
        }
        if (!axis->label().isEmpty()) {
          const int need = textWidth(QFontMetrics(axis->labelFont()), axis->label());
          const int room = horizontal ? rect->width() : rect->height();
          if (need > room)
            *problems << QStringLiteral("%1: axis title \"%2\" needs %3 px, the axis has %4")
                             .arg(name, axis->label())
                             .arg(need)
                             .arg(room);
        }
      }
    }
    // A legend wider than its plot is cut at the plot's edge ("Training loss (ep").
    if (plot->legend && plot->legend->visible() && plot->legend->layout() &&
        plot->legend->minimumOuterSizeHint().width() > plot->width())
      *problems << QStringLiteral("%1: the legend needs %2 px, the plot is %3 px wide")
                       .arg(name)
                       .arg(plot->legend->minimumOuterSizeHint().width())
                       .arg(plot->width());
    QList<QRectF> texts;
    const QRectF area = plot->axisRect()->rect();
    for (int i = 0; i < plot->itemCount(); ++i) {
      auto* t = qobject_cast<QCPItemText*>(plot->item(i));
      if (!t || !t->visible() || t->text().isEmpty()) continue;
      const QRectF r = textItemRect(t);
      if (!area.adjusted(-1, -1, 1, 1).contains(r))
        *problems << QStringLiteral("%1: label \"%2\" leaves the plot").arg(name, t->text());
      if (plot->legend->visible() && r.intersects(plot->legend->outerRect()))
        *problems << QStringLiteral("%1: label \"%2\" under the legend").arg(name, t->text());
      for (const QRectF& other : texts)
        if (r.intersects(other))
          *problems << QStringLiteral("%1: label \"%2\" overlaps another").arg(name, t->text());
      texts << r;
      for (int j = 0; j < plot->itemCount(); ++j) {
        auto* line = qobject_cast<QCPItemStraightLine*>(plot->item(j));
        if (!line || !line->visible()) continue;
        const QPointF a = line->point1->pixelPosition(), b = line->point2->pixelPosition();
        if (std::abs(a.x() - b.x()) > 0.5) continue;  // vertical lines only
        if (a.x() > r.left() + 1 && a.x() < r.right() - 1)
          *problems << QStringLiteral("%1: label \"%2\" crossed by a line").arg(name, t->text());
      }
    }
  }
}

}  // namespace layout_checks
