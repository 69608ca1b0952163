#pragma once
/// "Inject a mistake (teaching)": the switches of `teaching.mistakes` (issue 25 §4) in the
/// settings panel. Part of the settings panel.
#include <QWidget>
#include <vector>

#include "core/config/config_fwd.h"

class QCheckBox;
class QToolButton;

namespace trainscope {

/// One check box per name of mistakeNames() (objectName "mistake_<name>CheckBox", e.g.
/// mistake_no_zero_gradCheckBox), for the next run; lr_x1000 and lr_x1e-6 exclude each other.
/// The rows fold under a header button (mistakesToggle), folded by default, and unfold by
/// themselves when a config with mistakes is shown. While one is checked the header says how
/// many ("Inject a mistake (teaching): 2 on") in red, so nobody takes such a run for a real one.
class MistakeSettings : public QWidget {
  Q_OBJECT
 public:
  explicit MistakeSettings(QWidget* parent = nullptr);
  /// Shows `config`'s teaching.mistakes.
  void showConfig(const TrainConfig& config);
  /// Writes the checked names into `config.teaching.mistakes`, in mistakeNames() order.
  void apply(TrainConfig& config) const;
  void setEditable(bool editable);
  void retranslate();
  void setExpanded(bool expanded);

 signals:
  void changed();

 private:
  void updateHeader();
  QToolButton* toggle_ = nullptr;
  QWidget* body_ = nullptr;
  std::vector<QCheckBox*> boxes_;  ///< in mistakeNames() order
};

}  // namespace trainscope
