#include "gui/widgets/scientific_spin_box.h"

#include <QLocale>
#include <QRegularExpression>
#include <cmath>

namespace trainscope {

namespace {
QString trimmedMantissa(double mantissa) {
  QString text = QString::number(mantissa, 'f', 6);
  while (text.endsWith(QLatin1Char('0'))) text.chop(1);
  if (text.endsWith(QLatin1Char('.'))) text.chop(1);
  return text;
}
}  // namespace

ScientificSpinBox::ScientificSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
  // Many decimals so QDoubleSpinBox's own rounding never alters values such as 3e-7.
  setDecimals(20);
  setRange(1e-6, 10.0);
  setKeyboardTracking(false);
  // Refuse what is out of range (the owner says why) instead of clamping: 0 must not
  // silently become the minimum.
  setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
}

QString ScientificSpinBox::formatValue(double value) {
  if (value == 0.0 || !std::isfinite(value)) return QString::number(value);
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e-3 && magnitude < 1e3) return QString::number(value, 'g', 6);
  int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  double mantissa = value / std::pow(10.0, exponent);
  // Rounding to 6 digits can carry over to 10.
  if (std::fabs(std::round(mantissa * 1e6) / 1e6) >= 10.0) {
    mantissa /= 10.0;
    ++exponent;
  }
  return trimmedMantissa(mantissa) + QLatin1Char('e') + QString::number(exponent);
}

QString ScientificSpinBox::textFromValue(double value) const { return formatValue(value); }

double ScientificSpinBox::parse(const QString& text, bool* ok) {
  // '.' is the decimal point in every locale; a ',' typed on a German keyboard means the same.
  QString t = text.trimmed();
  t.replace(QLatin1Char(','), QLatin1Char('.'));
  return QLocale::c().toDouble(t, ok);
}

double ScientificSpinBox::valueFromText(const QString& text) const {
  bool ok = false;
  const double value = parse(text, &ok);
  return ok ? value : this->value();
}

QValidator::State ScientificSpinBox::validate(QString& text, int& /*pos*/) const {
  QString t = text.trimmed();
  t.replace(QLatin1Char(','), QLatin1Char('.'));
  if (t.isEmpty()) return QValidator::Intermediate;
  static const QRegularExpression partial(
      QStringLiteral("^\\+?(\\d+\\.?\\d*|\\.\\d*)?([eE][+-]?\\d*)?$"));
  if (!partial.match(t).hasMatch()) return QValidator::Invalid;
  bool ok = false;
  const double value = parse(t, &ok);
  if (!ok) return QValidator::Intermediate;
  if (value < minimum() || value > maximum()) return QValidator::Intermediate;
  return QValidator::Acceptable;
}

void ScientificSpinBox::fixup(QString& input) const {
  bool ok = false;
  const double value = parse(input, &ok);
  if (ok && value >= minimum() && value <= maximum()) {
    input = formatValue(value);
    return;
  }
  // Not a number in range: leave the text as typed, so QAbstractSpinBox restores the previous
  // value, and let the owner explain (fixup() is const; the signal only reports).
  const QString typed = input.trimmed();
  if (!typed.isEmpty())
    QMetaObject::invokeMethod(const_cast<ScientificSpinBox*>(this), "valueRejected",
                              Qt::QueuedConnection, Q_ARG(QString, typed));
}

void ScientificSpinBox::stepBy(int steps) {
  // 1-2-5 series: each step moves to the neighbouring "nice" value.
  static const double kSeries[] = {1.0, 2.0, 5.0};
  double v = value();
  for (int i = 0; i < std::abs(steps); ++i) {
    const int exponent = static_cast<int>(std::floor(std::log10(v) + 1e-9));
    const double decade = std::pow(10.0, exponent);
    const double m = v / decade;
    double next = v;
    if (steps > 0) {
      next = 10.0 * decade;
      for (double s : kSeries) {
        if (s > m + 1e-9) {
          next = s * decade;
          break;
        }
      }
    } else {
      next = 0.5 * decade;
      for (int k = 2; k >= 0; --k) {
        if (kSeries[k] < m - 1e-9) {
          next = kSeries[k] * decade;
          break;
        }
      }
    }
    v = next;
  }
  setValue(qBound(minimum(), v, maximum()));
}

}  // namespace trainscope
