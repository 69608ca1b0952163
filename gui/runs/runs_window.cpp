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

/// Sorts by the number in Qt::UserRole when both cells hold one, else by text; cells without a
/// number after those with one, in either order.
class RunItem : public QTableWidgetItem {
 public:
  using QTableWidgetItem::QTableWidgetItem;
  bool operator<(const QTableWidgetItem& other) const override {
    const QVariant a = data(Qt::UserRole), b = other.data(Qt::UserRole);
    if (a.isValid() && b.isValid()) return a.toDouble() < b.toDouble();
    if (a.isValid() != b.isValid()) {
      // Unknown values last in either order: Qt sorts descending by reversing this comparison.
      const bool descending = tableWidget() && tableWidget()->horizontalHeader()->sortIndicatorOrder() ==
                                                   Qt::DescendingOrder;
      return descending ? b.isValid() : a.isValid();
    }
    return text() < other.text();
  }
};

QString q(const std::string& s) { return QString::fromStdString(s); }
std::string s(const QString& q) { return q.toStdString(); }

}  // namespace

QString runColumnTitle(const std::string& key) {
  static const struct {
    const char* key;
    const char* title;
  } titles[] = {
      {"name", QT_TRANSLATE_NOOP("TrainScope", "Name")},
      {"started", QT_TRANSLATE_NOOP("TrainScope", "Started")},
      {"status", QT_TRANSLATE_NOOP("TrainScope", "Status")},
      {"data", QT_TRANSLATE_NOOP("TrainScope", "Data")},
      {"model", QT_TRANSLATE_NOOP("TrainScope", "Model")},
      {"params", QT_TRANSLATE_NOOP("TrainScope", "Parameters")},
      {"optimizer", QT_TRANSLATE_NOOP("TrainScope", "Optimizer")},
      {"lr", QT_TRANSLATE_NOOP("TrainScope", "Learning rate")},
      {"batch_size", QT_TRANSLATE_NOOP("TrainScope", "Batch size")},
      {"seed", QT_TRANSLATE_NOOP("TrainScope", "Seed")},
      {"epochs", QT_TRANSLATE_NOOP("TrainScope", "Epochs")},
      {"epochs_done", QT_TRANSLATE_NOOP("TrainScope", "Epochs done")},
      {"best_val_loss", QT_TRANSLATE_NOOP("TrainScope", "Best val loss")},
      {"best_epoch", QT_TRANSLATE_NOOP("TrainScope", "Best epoch")},
      {"final_val_loss", QT_TRANSLATE_NOOP("TrainScope", "Final val loss")},
      {"final_train_loss", QT_TRANSLATE_NOOP("TrainScope", "Final train loss")},
      {"best_val_accuracy", QT_TRANSLATE_NOOP("TrainScope", "Best val accuracy")},
      {"final_val_accuracy", QT_TRANSLATE_NOOP("TrainScope", "Final val accuracy")},
      {"best_val_r2", QT_TRANSLATE_NOOP("TrainScope", "Best val R²")},
      {"final_val_r2", QT_TRANSLATE_NOOP("TrainScope", "Final val R²")},
      {"final_val_mae", QT_TRANSLATE_NOOP("TrainScope", "Final val MAE")},
      {"final_val_rmse", QT_TRANSLATE_NOOP("TrainScope", "Final val RMSE")},
      {"test_loss", QT_TRANSLATE_NOOP("TrainScope", "Test loss")},
      {"test_accuracy", QT_TRANSLATE_NOOP("TrainScope", "Test accuracy")},
      {"anomalies", QT_TRANSLATE_NOOP("TrainScope", "Anomalies")},
      {"mistakes", QT_TRANSLATE_NOOP("TrainScope", "Mistakes (teaching)")},
      {"amp", QT_TRANSLATE_NOOP("TrainScope", "AMP")},
      {"threads", QT_TRANSLATE_NOOP("TrainScope", "Threads")},
      {"world_size", QT_TRANSLATE_NOOP("TrainScope", "Ranks")},
      {"duration_s", QT_TRANSLATE_NOOP("TrainScope", "Duration (s)")},
      {"trainscope_version", QT_TRANSLATE_NOOP("TrainScope", "TrainScope version")},
      {"torch_version", QT_TRANSLATE_NOOP("TrainScope", "libtorch version")},
      {"notes", QT_TRANSLATE_NOOP("TrainScope", "Notes")},
      {"tags", QT_TRANSLATE_NOOP("TrainScope", "Tags")},
      {"reason", QT_TRANSLATE_NOOP("TrainScope", "Reason")},
      {"dir", QT_TRANSLATE_NOOP("TrainScope", "Folder")},
  };
  for (const auto& t : titles)
    if (key == t.key) return Tr::tr(t.title);
  return q(key);
}

QString runStatusTitle(const std::string& status) {
  if (status == "running") return Tr::tr("running");
  if (status == "completed") return Tr::tr("completed");
  if (status == "stopped") return Tr::tr("stopped");
  if (status == "interrupted") return Tr::tr("interrupted");
  if (status == "diverged") return Tr::tr("diverged");
  if (status == "failed") return Tr::tr("failed");
  if (status == "crashed") return Tr::tr("crashed");
  if (status == "incomplete") return Tr::tr("incomplete");
  if (status == "not a run") return Tr::tr("not a run");
  return q(status);
}

QString runAnomaliesTitle(const std::string& anomalies) {
  static const QRegularExpression counted(QStringLiteral("^(.*?) ?[x@](\\d+)$"));
  static const QRegularExpression skipped(QStringLiteral("^(\\d+) steps? skipped$"));
  QStringList out;
  for (const QString& part : q(anomalies).split(QStringLiteral(", "), Qt::SkipEmptyParts)) {
    if (const auto m = skipped.match(part); m.hasMatch()) {
      out << Tr::tr("%1 step(s) skipped").arg(m.captured(1));
      continue;
    }
    if (part.startsWith(QLatin1String("diagnosis "))) {
      out << EventText::diagnosisKind(part.mid(10).toStdString());
      continue;
    }
    const auto m = counted.match(part);
    const QString what = m.hasMatch() ? m.captured(1) : part;
    const QString n = m.hasMatch() ? m.captured(2) : QString();
    if (what == QLatin1String("non-finite")) out << Tr::tr("non-finite x%1").arg(n);
    else if (what == QLatin1String("diverged")) out << Tr::tr("diverged at epoch %1").arg(n);
    else if (what == QLatin1String("rolled back")) out << Tr::tr("rolled back x%1").arg(n);
    else if (what == QLatin1String("overfitting")) out << Tr::tr("overfitting from epoch %1").arg(n);
    else if (what == QLatin1String("early stop")) out << Tr::tr("early stop at epoch %1").arg(n);
    else if (what == QLatin1String("slowdown")) out << Tr::tr("slowdown x%1").arg(n);
    else if (part == QLatin1String("clip warning")) out << Tr::tr("clip warning");
    else if (part == QLatin1String("memory warning")) out << Tr::tr("memory warning");
    else out << part;  // a kind this build does not know: as written
  }
  return out.join(Tr::tr(", "));
}

RunsWindow::RunsWindow(const QString& root, QWidget* parent) : QDialog(parent), root_(root) {
  setObjectName(QStringLiteral("runsWindow"));
  setSizeGripEnabled(true);
  folders_ << root;
  hidden_columns_ << QStringLiteral("reason");
  for (const auto& c : runColumns())
    if (!c.shown) hidden_columns_ << q(c.key);

  auto button = [this](const char* name) {
    auto* b = new QPushButton(this);
    b->setObjectName(QLatin1String(name));
    return b;
  };
  folders_label_ = new QLabel(this);
  folders_label_->setWordWrap(true);
  add_folder_ = button("addRunsFolderButton");
  refresh_ = button("refreshRunsButton");
  filter_ = new QLineEdit(this);
  filter_->setObjectName(QStringLiteral("runsFilterLineEdit"));
  filter_->setClearButtonEnabled(true);
  columns_ = new QToolButton(this);
  columns_->setObjectName(QStringLiteral("runsColumnsButton"));
  auto* top = new QHBoxLayout;
  top->addWidget(folders_label_, 1);
  top->addWidget(add_folder_);
  top->addWidget(refresh_);
  auto* filter_row = new QHBoxLayout;
  filter_row->addWidget(filter_, 1);
  filter_row->addWidget(columns_);

  table_ = new QTableWidget(this);
  table_->setObjectName(QStringLiteral("runsTable"));
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSortingEnabled(true);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionsMovable(true);

  differences_title_ = new QLabel(this);
  differences_ = new QTableWidget(this);
  differences_->setObjectName(QStringLiteral("runsDifferencesTable"));
  differences_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  differences_->verticalHeader()->hide();
  auto* diff_box = new QWidget(this);
  auto* diff_layout = new QVBoxLayout(diff_box);
  diff_layout->setContentsMargins(0, 0, 0, 0);
  diff_layout->addWidget(differences_title_);
  diff_layout->addWidget(differences_);

  notes_ = new QPlainTextEdit(this);
  notes_->setObjectName(QStringLiteral("runNotesEdit"));
  tags_ = new QLineEdit(this);
  tags_->setObjectName(QStringLiteral("runTagsLineEdit"));
  save_notes_ = button("saveRunNotesButton");
  auto* notes_box = new QWidget(this);
  auto* notes_layout = new QVBoxLayout(notes_box);
  notes_layout->setContentsMargins(0, 0, 0, 0);
  notes_layout->addWidget(notes_);
  notes_layout->addWidget(tags_);
  notes_layout->addWidget(save_notes_);

  auto* lower = new QSplitter(Qt::Horizontal, this);
  lower->addWidget(diff_box);
  lower->addWidget(notes_box);
  lower->setStretchFactor(0, 2);
  lower->setStretchFactor(1, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(table_);
  split->addWidget(lower);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);

  overlay_ = button("overlayRunsButton");
  open_ = button("openSelectedRunButton");
  continue_ = button("continueRunButton");
  rerun_ = button("rerunButton");
  replay_ = button("replayRunButton");
  ghost_ = button("ghostRunButton");
  rename_ = button("renameRunButton");
  reveal_ = button("revealRunButton");
  trash_ = button("trashRunButton");
  // Two rows of actions: in one row the nine buttons made the window 1115 px wide in
  // presentation mode, wider than a 1024x768 projector (issue 43).
  auto* actions = new QVBoxLayout;
  auto* first_row = new QHBoxLayout;
  for (QPushButton* b : {overlay_, ghost_, open_, continue_}) first_row->addWidget(b);
  first_row->addStretch(1);
  auto* second_row = new QHBoxLayout;
  for (QPushButton* b : {rerun_, replay_, rename_, reveal_}) second_row->addWidget(b);
  second_row->addStretch(1);
  second_row->addWidget(trash_);
  actions->addLayout(first_row);
  actions->addLayout(second_row);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addLayout(filter_row);
  layout->addWidget(split, 1);
  layout->addLayout(actions);

  connect(add_folder_, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, Tr::tr("Add a folder of runs"), root_);
    if (!dir.isEmpty()) addFolder(dir);
  });
  connect(refresh_, &QPushButton::clicked, this, &RunsWindow::reload);
  connect(filter_, &QLineEdit::textChanged, this, &RunsWindow::applyFilter);
  connect(columns_, &QToolButton::clicked, this, &RunsWindow::chooseColumns);
  differences_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(differences_, &QTableWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    const QTableWidgetItem* item = differences_->itemAt(pos);
    if (!item) return;
    const QString key = differences_->item(item->row(), 0)->text();
    QMenu menu(this);
    QAction* show = menu.addAction(Tr::tr("Show %1 as a column").arg(key));
    show->setEnabled(!config_columns_.contains(key));
    if (menu.exec(differences_->viewport()->mapToGlobal(pos)) == show) addConfigColumn(key);
  });
  connect(table_, &QTableWidget::itemSelectionChanged, this, &RunsWindow::onSelectionChanged);
  connect(table_, &QTableWidget::cellDoubleClicked, this, [this] {
    if (const RunRow* r = currentRow(); r && r->status != "not a run")
      emit openRequested(q(r->dir.string()));
  });
  connect(open_, &QPushButton::clicked, this, [this] {
    if (const RunRow* r = currentRow()) emit openRequested(q(r->dir.string()));
  });
  connect(continue_, &QPushButton::clicked, this, [this] {
    if (const RunRow* r = currentRow())
      emit continueRequested(q((r->dir / "checkpoints" / "last.pt").string()));
  });
  connect(rerun_, &QPushButton::clicked, this, [this] {
    if (const RunRow* r = currentRow()) emit rerunRequested(q((r->dir / "config.json").string()));
  });
  connect(replay_, &QPushButton::clicked, this, [this] {
    if (const RunRow* r = currentRow()) emit replayRequested(q(r->dir.string()));
  });
  connect(ghost_, &QPushButton::clicked, this, [this] {
    if (const RunRow* r = currentRow()) emit ghostRequested(q(r->dir.string()));
  });
  connect(reveal_, &QPushButton::clicked, this, [this] {
    if (const RunRow* r = currentRow())
      QDesktopServices::openUrl(QUrl::fromLocalFile(q(r->dir.string())));
  });
  connect(overlay_, &QPushButton::clicked, this, [this] { compareSelected(); });
  connect(rename_, &QPushButton::clicked, this, &RunsWindow::renameSelected);
  connect(trash_, &QPushButton::clicked, this, &RunsWindow::trashSelected);
  connect(save_notes_, &QPushButton::clicked, this, &RunsWindow::saveNotes);
  retranslate();
  resize(1000, 620);
  reload();
}

void RunsWindow::retranslate() {
  setWindowTitle(Tr::tr("Runs"));
  add_folder_->setText(Tr::tr("Add folder..."));
  refresh_->setText(Tr::tr("Reload"));
  filter_->setPlaceholderText(
      Tr::tr("Filter: text in any column, or key=text (status=diverged, optimizer.name=sgd)"));
  columns_->setText(Tr::tr("Columns"));
  differences_title_->setText(Tr::tr("Settings that differ among the selected runs"));
  notes_->setPlaceholderText(Tr::tr("Notes on the selected run"));
  tags_->setPlaceholderText(Tr::tr("Tags, separated by commas"));
  save_notes_->setText(Tr::tr("Save notes"));
  overlay_->setText(Tr::tr("Compare curves"));
  overlay_->setToolTip(Tr::tr("Draw the curves of the 2 to 10 selected runs on one plot, one "
                              "of them the baseline."));
  open_->setText(Tr::tr("Show"));
  open_->setToolTip(Tr::tr("Show the run in the training view from its files (no folder is created)."));
  continue_->setText(Tr::tr("Continue"));
  continue_->setToolTip(Tr::tr("Continue the run from its last checkpoint (checkpoints/last.pt) in a new run."));
  rerun_->setText(Tr::tr("Run again"));
  rerun_->setToolTip(Tr::tr("Load the run's settings (config.json, seed included) to run it again."));
  replay_->setText(Tr::tr("Replay"));
  replay_->setToolTip(Tr::tr("Train the run again in a new run with every change it recorded "
                             "(learning rate, clipping, AMP) at the same step, and the same stop."));
  ghost_->setText(Tr::tr("Beside the live run"));
  ghost_->setToolTip(Tr::tr("Draw this run's epoch losses dashed on the training view's loss "
                            "plot, beside the runs you start, until you clear it."));
  rename_->setText(Tr::tr("Rename..."));
  reveal_->setText(Tr::tr("Open folder"));
  trash_->setText(Tr::tr("Move to trash..."));
  trash_->setToolTip(Tr::tr("Move the run folder into the trash folder inside the runs folder."));
}

void RunsWindow::addFolder(const QString& dir) {
  if (!folders_.contains(dir)) folders_ << dir;
  reload();
}

void RunsWindow::reload() {
  rows_.clear();
  QStringList missing;
  for (const QString& f : folders_) {
    try {
      auto rows = listRuns({std::filesystem::path(s(f))});
      for (auto& r : rows) rows_.push_back(std::move(r));
    } catch (const Error&) {
      missing << f;  // a runs folder not made yet (no run so far), or removed
    }
  }
  QStringList shown;
  for (const QString& f : folders_)
    shown << (missing.contains(f) ? Tr::tr("%1 (does not exist yet)").arg(f) : f);
  folders_label_->setText(Tr::tr("Runs in: %1").arg(shown.join(QStringLiteral("; "))));
  fillTable();
}

std::vector<std::string> RunsWindow::columnKeys() const {
  std::vector<std::string> keys;
  for (const auto& c : runColumns()) keys.push_back(c.key);
  for (const QString& k : config_columns_) keys.push_back(s(k));
  return keys;
}

void RunsWindow::fillTable() {
  const std::vector<std::string> columns = columnKeys();
  std::vector<std::string> config_keys;
  for (const QString& k : config_columns_) config_keys.push_back(s(k));
  addConfigColumns(rows_, config_keys, "column");  // keys checked by addConfigColumn
  table_->setSortingEnabled(false);
  table_->clear();
  table_->setColumnCount(static_cast<int>(columns.size()));
  table_->setRowCount(static_cast<int>(rows_.size()));
  QStringList headers;
  for (const auto& key : columns)
    headers << (config_columns_.contains(q(key)) ? q(key) : runColumnTitle(key));
  table_->setHorizontalHeaderLabels(headers);
  for (int c = static_cast<int>(runColumns().size()); c < static_cast<int>(columns.size()); ++c)
    table_->horizontalHeaderItem(c)->setToolTip(
        Tr::tr("The setting %1 of each run's config.json").arg(q(columns[static_cast<size_t>(c)])));
  for (int r = 0; r < static_cast<int>(rows_.size()); ++r) {
    const RunRow& row = rows_[static_cast<size_t>(r)];
    for (int c = 0; c < static_cast<int>(columns.size()); ++c) {
      const std::string& key = columns[static_cast<size_t>(c)];
      auto* item = new RunItem(key == "status"      ? runStatusTitle(row.status)
                               : key == "anomalies" ? runAnomaliesTitle(runCell(row, key))
                                                    : q(runCell(row, key)));
      const auto& v = row.values.at(key);
      if (v.is_number()) item->setData(Qt::UserRole, v.get<double>());
      if (c == 0) item->setData(Qt::UserRole + 1, r);  // index into rows_
      if (key == "status") {
        if (row.status == "diverged" || row.status == "failed") item->setForeground(QColor(200, 30, 30));
        if (row.status == "crashed" || row.status == "incomplete") item->setForeground(QColor(190, 110, 0));
        if (row.status == "running") item->setForeground(QColor(20, 90, 200));
        if (!row.reason.empty()) item->setToolTip(q(row.reason));
      }
      // Cut cells show whole on hover (issue 43: names cut to "overfit-..." at 1024x768).
      if (key == "name" || key == "anomalies" || key == "notes" || key == "reason" ||
          key == "data" || key == "model" || key == "dir")
        item->setToolTip(item->text());
      table_->setItem(r, c, item);
    }
  }
  for (int c = 0; c < static_cast<int>(columns.size()); ++c)
    table_->setColumnHidden(c, hidden_columns_.contains(q(columns[static_cast<size_t>(c)])));
  table_->setSortingEnabled(true);
  table_->resizeColumnsToContents();
  for (int c = 0; c < table_->columnCount(); ++c)
    table_->setColumnWidth(c, std::min(table_->columnWidth(c), 260));
  applyFilter();
  onSelectionChanged();
}

void RunsWindow::applyFilter() {
  const std::string text = s(filter_->text().trimmed());
  QString error;
  for (int r = 0; r < table_->rowCount(); ++r) {
    const int index = table_->item(r, 0)->data(Qt::UserRole + 1).toInt();
    bool keep = true;
    if (!text.empty()) {
      try {
        keep = runMatches(rows_[static_cast<size_t>(index)], text);
      } catch (const Error& e) {
        error = q(e.what());
      }
    }
    table_->setRowHidden(r, !keep);
  }
  filter_->setToolTip(error);
  filter_->setStyleSheet(error.isEmpty() ? QString() : QStringLiteral("border: 1px solid #c81e1e;"));
}

void RunsWindow::chooseColumns() {
  QMenu menu(this);
  for (const auto& c : runColumns()) {
    QAction* a = menu.addAction(runColumnTitle(c.key));
    a->setCheckable(true);
    a->setChecked(!hidden_columns_.contains(q(c.key)));
    a->setData(q(c.key));
  }
  // Any config key as a column (issue 43 item 11, as `runs --columns`): the keys that differ
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
