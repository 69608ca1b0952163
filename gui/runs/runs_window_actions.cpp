// The Runs window (runs_window.h): its Columns menu (config keys as columns), the selection
// and the actions on selected runs (notes, rename, trash, compare).
#include "gui/runs/runs_window.h"

#include <QColor>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTableWidget>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>
#include <system_error>
#include <set>

#include "core/config/config_file.h"
#include "core/errors.h"
#include "core/run/run_lock.h"
#include "gui/event_text.h"
#include "gui/tr.h"
#include "gui/plots/runs_overlay.h"


namespace trainscope {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
std::string s(const QString& q) { return q.toStdString(); }

}  // namespace

void RunsWindow::chooseColumns() {
  QMenu menu(this);
  for (const auto& c : runColumns()) {
    QAction* a = menu.addAction(runColumnTitle(c.key));
    a->setCheckable(true);
    a->setChecked(!hidden_columns_.contains(q(c.key)));
    a->setData(q(c.key));
  }
  // Any config key as a column (as `runs --columns`): the keys that differ
  // among the runs listed first, being the ones worth a column; the others by name.
  menu.addSeparator();
  QMenu* settings = menu.addMenu(Tr::tr("Settings as columns"));
  settings->setObjectName(QStringLiteral("runsConfigColumnsMenu"));
  std::vector<RunRow> with_config;
  for (const RunRow& r : rows_)
    if (r.config.is_object()) with_config.push_back(r);
  QStringList offered = config_columns_;
  if (with_config.size() >= 2)
    for (const auto& d : configDifferences(with_config))
      if (!offered.contains(q(d.key))) offered << q(d.key);
  for (const QString& key : offered) {
    QAction* a = settings->addAction(key);
    a->setCheckable(true);
    a->setChecked(config_columns_.contains(key));
    a->setData(QStringLiteral("config:") + key);
  }
  if (!offered.isEmpty()) settings->addSeparator();
  QAction* other = settings->addAction(Tr::tr("Another setting..."));
  QAction* chosen = menu.exec(columns_->mapToGlobal(QPoint(0, columns_->height())));
  if (!chosen) return;
  if (chosen == other) {
    askConfigColumn();
    return;
  }
  const QString key = chosen->data().toString();
  if (key.startsWith(QStringLiteral("config:"))) {
    const QString config_key = key.mid(7);
    if (chosen->isChecked()) addConfigColumn(config_key);
    else removeConfigColumn(config_key);
    return;
  }
  if (chosen->isChecked()) hidden_columns_.removeAll(key);
  else hidden_columns_ << key;
  const auto columns = columnKeys();
  for (int c = 0; c < static_cast<int>(columns.size()); ++c)
    table_->setColumnHidden(c, hidden_columns_.contains(q(columns[static_cast<size_t>(c)])));
}

void RunsWindow::askConfigColumn() {
  QStringList keys;
  for (const auto& k : configKeyInfos()) keys << q(k.key);
  bool ok = false;
  const QString key = QInputDialog::getItem(
      this, Tr::tr("Setting as a column"),
      Tr::tr("Config key (as in trainscope-cli config --keys):"), keys, 0, true, &ok);
  if (!ok || key.trimmed().isEmpty()) return;
  if (!addConfigColumn(key.trimmed()))
    QMessageBox::warning(this, Tr::tr("Setting as a column"),
                         Tr::tr("%1 is not a config key (see trainscope-cli config --keys).")
                             .arg(key.trimmed()));
}

bool RunsWindow::addConfigColumn(const QString& key) {
  const std::string k = s(key);
  if (!isRunColumnOrConfigKey(k)) return false;
  for (const auto& c : runColumns())
    if (c.key == k) {  // a built-in column: show it
      hidden_columns_.removeAll(key);
      fillTable();
      return true;
    }
  if (!config_columns_.contains(key)) config_columns_ << key;
  hidden_columns_.removeAll(key);
  fillTable();
  return true;
}

void RunsWindow::removeConfigColumn(const QString& key) {
  if (!config_columns_.removeAll(key)) return;
  fillTable();
}

std::vector<const RunRow*> RunsWindow::selectedRows() const {
  std::vector<const RunRow*> out;
  std::set<int> seen;
  for (const auto& range : table_->selectedRanges())
    for (int r = range.topRow(); r <= range.bottomRow(); ++r) {
      if (table_->isRowHidden(r)) continue;
      const int index = table_->item(r, 0)->data(Qt::UserRole + 1).toInt();
      if (seen.insert(index).second) out.push_back(&rows_[static_cast<size_t>(index)]);
    }
  return out;
}

const RunRow* RunsWindow::currentRow() const {
  const int r = table_->currentRow();
  if (r < 0 || !table_->item(r, 0) || table_->selectedRanges().isEmpty()) return nullptr;
  return &rows_[static_cast<size_t>(table_->item(r, 0)->data(Qt::UserRole + 1).toInt())];
}

void RunsWindow::onSelectionChanged() {
  const auto selected = selectedRows();
  const RunRow* row = currentRow();
  const bool run = row && row->status != "not a run" && row->status != "incomplete";
  const bool live = row && row->status == "running";
  std::error_code ec;
  open_->setEnabled(run);
  int readable = 0;
  for (const RunRow* r : selected) readable += r->status != "not a run" && r->status != "incomplete";
  overlay_->setEnabled(readable >= 2 && readable <= 10);
  continue_->setEnabled(run && !live && std::filesystem::exists(row->dir / "checkpoints" / "last.pt", ec));
  rerun_->setEnabled(run && std::filesystem::exists(row->dir / "config.json", ec));
  replay_->setEnabled(run && !live && std::filesystem::exists(row->dir / "events.jsonl", ec));
  ghost_->setEnabled(run);
  rename_->setEnabled(run && !live);
  trash_->setEnabled(run && !live);
  reveal_->setEnabled(row != nullptr);
  notes_->setEnabled(run);
  tags_->setEnabled(run);
  save_notes_->setEnabled(run);
  notes_->setPlainText(row ? q(row->values.value("notes", nlohmann::json("")).is_string()
                                   ? row->values["notes"].get<std::string>()
                                   : std::string())
                           : QString());
  tags_->setText(row && row->values["tags"].is_string() ? q(row->values["tags"].get<std::string>())
                                                        : QString());
  // Differences only: the config keys that differ among the selected runs.
  differences_->clear();
  std::vector<RunRow> chosen;
  for (const RunRow* r : selected)
    if (r->config.is_object()) chosen.push_back(*r);
  if (chosen.size() < 2) {
    differences_->setRowCount(0);
    differences_->setColumnCount(0);
    differences_title_->setText(Tr::tr("Select two or more runs to see the settings that differ"));
    return;
  }
  differences_title_->setText(
      Tr::tr("Settings that differ among the %1 selected runs").arg(chosen.size()));
  const auto diffs = configDifferences(chosen);
  differences_->setColumnCount(static_cast<int>(chosen.size()) + 1);
  QStringList headers{Tr::tr("Setting")};
  for (const auto& r : chosen) headers << q(r.dir.filename().string());
  differences_->setHorizontalHeaderLabels(headers);
  differences_->setRowCount(static_cast<int>(diffs.size()));
  for (int i = 0; i < static_cast<int>(diffs.size()); ++i) {
    const auto& d = diffs[static_cast<size_t>(i)];
    differences_->setItem(i, 0, new QTableWidgetItem(q(d.key)));
    for (int k = 0; k < static_cast<int>(d.values.size()); ++k)
      differences_->setItem(i, k + 1, new QTableWidgetItem(q(d.values[static_cast<size_t>(k)])));
  }
  differences_->resizeColumnsToContents();
}

void RunsWindow::saveNotes() {
  const RunRow* row = currentRow();
  if (!row) return;
  std::vector<std::string> tags;
  for (const QString& t : tags_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) tags.push_back(s(t));
  try {
    writeRunNotes(row->dir, s(notes_->toPlainText()), tags);
  } catch (const Error& e) {
    QMessageBox::warning(this, Tr::tr("Save notes"), Tr::tr("The notes were not saved:\n%1").arg(q(e.what())));
    return;
  }
  const QString dir = q(row->dir.string());
  reload();
  selectRuns({dir});
}

void RunsWindow::renameSelected() {
  const RunRow* row = currentRow();
  if (!row) return;
  const QString old_name = q(row->dir.filename().string());
  bool ok = false;
  const QString name = QInputDialog::getText(this, Tr::tr("Rename run"), Tr::tr("New folder name:"),
                                             QLineEdit::Normal, old_name, &ok).trimmed();
  if (!ok || name.isEmpty() || name == old_name) return;
  if (name.contains(QLatin1Char('/')) || name.startsWith(QLatin1Char('.'))) {
    QMessageBox::warning(this, Tr::tr("Rename run"), Tr::tr("A folder name cannot contain '/' or start with '.'."));
    return;
  }
  const std::filesystem::path target = row->dir.parent_path() / s(name);
  std::error_code ec;
  if (RunDirLock::holder(row->dir)) ec = std::make_error_code(std::errc::device_or_resource_busy);
  else if (std::filesystem::exists(target, ec)) ec = std::make_error_code(std::errc::file_exists);
  else std::filesystem::rename(row->dir, target, ec);
  if (ec) {
    QMessageBox::warning(this, Tr::tr("Rename run"),
                         Tr::tr("%1 was not renamed: %2").arg(q(row->dir.string()), q(ec.message())));
    return;
  }
  reload();
  selectRuns({q(target.string())});
}

void RunsWindow::trashSelected() {
  const RunRow* row = currentRow();
  if (!row) return;
  const QString dir = q(row->dir.string());
  if (QMessageBox::question(this, Tr::tr("Move to trash"),
                            Tr::tr("Move the run %1 into %2?\nIts files are kept there until you delete them.")
                                .arg(dir, QDir(root_).filePath(QStringLiteral("trash")))) != QMessageBox::Yes)
    return;
  try {
    moveRunToTrash(row->dir, std::filesystem::path(s(root_)));
  } catch (const Error& e) {
    QMessageBox::warning(this, Tr::tr("Move to trash"), q(e.what()));
  }
  reload();
}

RunsOverlayDialog* RunsWindow::compareSelected() {
  QStringList dirs;
  for (const RunRow* r : selectedRows())
    if (r->status != "not a run" && r->status != "incomplete") dirs << q(r->dir.string());
  if (dirs.size() < 2 || dirs.size() > 10) return nullptr;
  auto* d = new RunsOverlayDialog(dirs, this);
  d->setAttribute(Qt::WA_DeleteOnClose);
  d->show();
  return d;
}

QStringList RunsWindow::shownRuns() const {
  QStringList out;
  for (int r = 0; r < table_->rowCount(); ++r)
    if (!table_->isRowHidden(r))
      out << q(rows_[static_cast<size_t>(table_->item(r, 0)->data(Qt::UserRole + 1).toInt())].dir.string());
  return out;
}

void RunsWindow::selectRuns(const QStringList& dirs) {
  table_->clearSelection();
  table_->setSelectionMode(QAbstractItemView::MultiSelection);
  for (int r = 0; r < table_->rowCount(); ++r) {
    const auto& row = rows_[static_cast<size_t>(table_->item(r, 0)->data(Qt::UserRole + 1).toInt())];
    if (dirs.contains(q(row.dir.string()))) {
      table_->selectRow(r);
      table_->setCurrentCell(r, 0, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
  }
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  onSelectionChanged();
}

QStringList RunsWindow::differenceKeys() const {
  QStringList out;
  for (int r = 0; r < differences_->rowCount(); ++r) out << differences_->item(r, 0)->text();
  return out;
}

}  // namespace trainscope
