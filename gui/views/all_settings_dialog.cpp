#include "gui/views/all_settings_dialog.h"

#include "gui/plots/palette.h"
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/errors.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

enum Column { kKey = 0, kValue = 1, kAllowed = 2 };

/// The value at dotted `key` of `j`, as the table shows it: strings as they are, the rest as
/// compact JSON.
QString shown(const nlohmann::json& j, const std::string& key) {
  const nlohmann::json* node = &j;
  size_t start = 0;
  while (start <= key.size()) {
    const size_t dot = key.find('.', start);
    const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!node->is_object() || !node->contains(part)) return QString();
    node = &(*node)[part];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node->is_string() ? QString::fromStdString(node->get<std::string>())
                           : QString::fromStdString(node->dump());
}

}  // namespace

AllSettingsDialog::AllSettingsDialog(const TrainConfig& config, QWidget* parent)
    : QDialog(parent), config_(config) {
  setObjectName(QStringLiteral("allSettingsDialog"));
  setWindowTitle(Tr::tr("All settings"));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      Tr::tr("Every setting of the next run, as config files and trainscope-cli train --set "
             "name them. Values are JSON: numbers, true or false, null, [lists]; text as it is."),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  filter_ = new QLineEdit(this);
  filter_->setObjectName(QStringLiteral("allSettingsFilter"));
  filter_->setPlaceholderText(Tr::tr("Filter, e.g. scheduler or cnn"));
  filter_->setClearButtonEnabled(true);
  layout->addWidget(filter_);
  table_ = new QTableWidget(this);
  table_->setObjectName(QStringLiteral("allSettingsTable"));
  table_->setColumnCount(3);
  table_->setHorizontalHeaderLabels({Tr::tr("Setting"), Tr::tr("Value"), Tr::tr("Allowed")});
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  const nlohmann::json j = configToJson(config);
  const auto infos = configKeyInfos();
  table_->setRowCount(static_cast<int>(infos.size()));
  for (int r = 0; r < static_cast<int>(infos.size()); ++r) {
    const ConfigKeyInfo& k = infos[static_cast<size_t>(r)];
    const QString tip = QStringLiteral("%1\n%2: %3")
                            .arg(QString::fromStdString(k.help), Tr::tr("Default"),
                                 QString::fromStdString(k.default_value.is_string()
                                                            ? k.default_value.get<std::string>()
                                                            : k.default_value.dump()));
    auto* key = new QTableWidgetItem(QString::fromStdString(k.key));
    key->setFlags(key->flags() & ~Qt::ItemIsEditable);
    key->setToolTip(tip);
    const QString value_text = shown(j, k.key);
    original_ << value_text;
    auto* value = new QTableWidgetItem(value_text);
    value->setToolTip(tip);
    auto* allowed = new QTableWidgetItem(QString::fromStdString(k.allowed.empty() ? k.type : k.allowed));
    allowed->setFlags(allowed->flags() & ~Qt::ItemIsEditable);
    allowed->setToolTip(tip);
    table_->setItem(r, kKey, key);
    table_->setItem(r, kValue, value);
    table_->setItem(r, kAllowed, allowed);
  }
  table_->resizeColumnsToContents();
  table_->setColumnWidth(kKey, std::min(table_->columnWidth(kKey), 320));
  table_->setColumnWidth(kValue, std::max(160, std::min(table_->columnWidth(kValue), 260)));
  table_->horizontalHeader()->setStretchLastSection(true);
  layout->addWidget(table_, 1);
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("allSettingsError"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: %1;").arg(palette::css(palette::kErrorText)));
  error_->hide();
  layout->addWidget(error_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &AllSettingsDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  connect(filter_, &QLineEdit::textChanged, this, &AllSettingsDialog::filter);
  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (item->column() == kValue) markChanged(item->row());
  });
  resize(900, 620);
}

QStringList AllSettingsDialog::keys() const {
  QStringList out;
  for (int r = 0; r < table_->rowCount(); ++r) out << table_->item(r, kKey)->text();
  return out;
}

bool AllSettingsDialog::setValueText(const QString& key, const QString& text) {
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, kKey)->text() == key) {
      table_->item(r, kValue)->setText(text);
      return true;
    }
  return false;
}

QString AllSettingsDialog::valueText(const QString& key) const {
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, kKey)->text() == key) return table_->item(r, kValue)->text();
  return QString();
}

void AllSettingsDialog::markChanged(int row) {
  QTableWidgetItem* item = table_->item(row, kValue);
  QFont f = item->font();
  f.setBold(item->text() != original_.value(row));
  const QSignalBlocker block(table_);
  item->setFont(f);
  table_->item(row, kKey)->setFont(f);
}

void AllSettingsDialog::filter(const QString& text) {
  for (int r = 0; r < table_->rowCount(); ++r)
    table_->setRowHidden(r, !text.isEmpty() &&
                                !table_->item(r, kKey)->text().contains(text, Qt::CaseInsensitive));
}

bool AllSettingsDialog::apply(QString* error) {
  nlohmann::json j = configToJson(config_);
  try {
    for (int r = 0; r < table_->rowCount(); ++r) {
      const QString text = table_->item(r, kValue)->text();
      if (text == original_.value(r)) continue;
      applySet(j, (table_->item(r, kKey)->text() + QLatin1Char('=') + text.trimmed()).toStdString());
    }
    config_ = configFromJson(j);
  } catch (const Error& e) {
    const QString message = QString::fromUtf8(e.what());
    error_->setText(message);
    error_->show();
    if (error) *error = message;
    return false;
  }
  error_->hide();
  return true;
}

void AllSettingsDialog::accept() {
  if (apply()) QDialog::accept();
}

}  // namespace trainscope
