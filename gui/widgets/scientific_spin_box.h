#pragma once
/// A QDoubleSpinBox that reads and writes values like 3e-4 (learning rates).
#include <QDoubleSpinBox>

namespace trainscope {

/// Double spin box for values spanning many decades. Shows small and large values in compact
/// scientific form ("3e-4") with '.' as the decimal point in every locale, accepts any C-locale
/// floating-point text ("0.0003", "3E-4") and a ',' as the decimal point too ("0,5"), and
/// steps along the 1-2-5 series (1e-4, 2e-4, 5e-4, 1e-3, ...). Values are not rounded to a fixed
/// number of decimals.
class ScientificSpinBox : public QDoubleSpinBox {
  Q_OBJECT
 public:
  explicit ScientificSpinBox(QWidget* parent = nullptr);

  /// Compact text for a value: "0.001" .. "999" plainly, otherwise "3e-4" / "1.5e+3".
  static QString formatValue(double value);
  /// Reads "0.5", "0,5", "3e-4" (whatever the locale); `ok` false when it is not a number.
  static double parse(const QString& text, bool* ok);

  QString textFromValue(double value) const override;
  double valueFromText(const QString& text) const override;
  QValidator::State validate(QString& text, int& pos) const override;
  void fixup(QString& input) const override;
  void stepBy(int steps) override;

 signals:
  /// Typed text that is not a number in range was refused (the previous value stays): the
  /// owner says why, instead of the value being silently clamped (0 must not become 1e-10).
  void valueRejected(const QString& text);
};

}  // namespace trainscope
