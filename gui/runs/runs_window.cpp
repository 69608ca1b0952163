#include "gui/runs/runs_window.h"

#include "gui/plots/palette.h"
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
  // presentation mode, wider than a 1024x768 projector.
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
        if (row.status == "diverged" || row.status == "failed") item->setForeground(palette::kErrorText);
        if (row.status == "crashed" || row.status == "incomplete") item->setForeground(palette::kWarningText);
        if (row.status == "running") item->setForeground(palette::kRunningText);
        if (!row.reason.empty()) item->setToolTip(q(row.reason));
      }
      // Cut cells show whole on hover (names cut to "overfit-..." at 1024x768).
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
  filter_->setStyleSheet(error.isEmpty() ? QString()
                                         : QStringLiteral("border: 1px solid %1;")
                                               .arg(palette::css(palette::kErrorText)));
}

}  // namespace trainscope
