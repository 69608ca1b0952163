#include "gui/panels/mistake_settings.h"

#include "gui/plots/palette.h"
#include <QCheckBox>
#include <QSignalBlocker>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "core/config/train_config.h"
#include "core/config/mistakes.h"
#include "gui/event_text.h"
#include "gui/tr.h"

namespace trainscope {

MistakeSettings::MistakeSettings(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("mistakeSettings"));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  toggle_ = new QToolButton(this);
  toggle_->setObjectName(QStringLiteral("mistakesToggle"));
  toggle_->setCheckable(true);
  toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toggle_->setAutoRaise(true);
  outer->addWidget(toggle_);
  body_ = new QWidget(this);
  outer->addWidget(body_);
  auto* rows = new QVBoxLayout(body_);
  rows->setContentsMargins(12, 0, 0, 0);
  for (const std::string& name : mistakeNames()) {
    auto* box = new QCheckBox(body_);
    box->setObjectName(QStringLiteral("mistake_%1CheckBox").arg(QString::fromStdString(name)));
    box->setProperty("mistake", QString::fromStdString(name));
    rows->addWidget(box);
    boxes_.push_back(box);
    connect(box, &QCheckBox::toggled, this, [this, box, name](bool on) {
      // a learning rate cannot be both 1000x and 1e-6x
      if (on && (name == "lr_x1000" || name == "lr_x1e-6"))
        for (QCheckBox* other : boxes_)
          if (other != box && other->property("mistake").toString().startsWith("lr_x"))
            other->setChecked(false);
      updateHeader();
      emit changed();
    });
  }
  connect(toggle_, &QToolButton::toggled, this, &MistakeSettings::setExpanded);
  setExpanded(false);
  retranslate();
}

void MistakeSettings::setExpanded(bool expanded) {
  const QSignalBlocker block(toggle_);
  toggle_->setChecked(expanded);
  toggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
  body_->setVisible(expanded);
}

void MistakeSettings::showConfig(const TrainConfig& config) {
  const auto& on = config.teaching.mistakes;
  for (QCheckBox* box : boxes_) {
    const QSignalBlocker block(box);
    box->setChecked(std::find(on.begin(), on.end(),
                              box->property("mistake").toString().toStdString()) != on.end());
  }
  if (!on.empty()) setExpanded(true);
  updateHeader();
}

void MistakeSettings::apply(TrainConfig& config) const {
  config.teaching.mistakes.clear();
  for (QCheckBox* box : boxes_)
    if (box->isChecked())
      config.teaching.mistakes.push_back(box->property("mistake").toString().toStdString());
}

void MistakeSettings::setEditable(bool editable) {
  for (QCheckBox* box : boxes_) box->setEnabled(editable);
}

void MistakeSettings::updateHeader() {
  const auto on = std::count_if(boxes_.begin(), boxes_.end(),
                                [](const QCheckBox* b) { return b->isChecked(); });
  toggle_->setText(on == 0 ? Tr::tr("Inject a mistake (teaching)")
                           : Tr::tr("Inject a mistake (teaching): %1 on").arg(on));
  toggle_->setStyleSheet(on == 0 ? QString()
                                 : QStringLiteral("color: %1; font-weight: bold;")
                                       .arg(palette::css(palette::kMistakeText)));
}

void MistakeSettings::retranslate() {
  toggle_->setToolTip(
      Tr::tr("For the classroom: each switch puts a classic training-loop bug into the next run, "
             "so the class can watch what it does. The run is marked.") +
      QStringLiteral("\n") +
      Tr::tr("Classic PyTorch training-loop bugs, injected on purpose (teaching.mistakes)."));
  for (size_t i = 0; i < boxes_.size(); ++i) {
    const std::string name = boxes_[i]->property("mistake").toString().toStdString();
    boxes_[i]->setText(EventText::mistake(name));
    boxes_[i]->setToolTip(QString::fromStdString(name));
  }
  updateHeader();
}

}  // namespace trainscope
