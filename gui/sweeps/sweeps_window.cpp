#include "gui/sweeps/sweeps_window.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

#include "core/sweep/sweep_view.h"
#include "core/system/number_format.h"
#include "gui/plots/palette.h"
#include "gui/plots/runs_overlay.h"
#include "gui/sweeps/parallel_coordinates.h"
#include "gui/sweeps/sweep_trials_model.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString choiceText(const nlohmann::json& v) {
  return v.is_string() ? q(v.get<std::string>()) : q(v.dump());
}

}  // namespace

SweepsWindow::SweepsWindow(const QString& root, QWidget* parent)
    : QDialog(parent), root_(root), view_(std::make_unique<SweepView>()) {
  setObjectName(QStringLiteral("sweepsWindow"));
  setWindowTitle(Tr::tr("Sweeps"));
  resize(1000, 720);
  auto* layout = new QVBoxLayout(this);

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(Tr::tr("Sweep:")));
  sweeps_ = new QComboBox;
  sweeps_->setObjectName(QStringLiteral("sweepCombo"));
  sweeps_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  sweeps_->setMinimumContentsLength(24);
  top->addWidget(sweeps_, 1);
  auto* open_folder = new QPushButton(Tr::tr("Open folder..."));
  open_folder->setObjectName(QStringLiteral("openSweepFolderButton"));
  top->addWidget(open_folder);
  layout->addLayout(top);
  status_ = new QLabel;
  status_->setObjectName(QStringLiteral("sweepStatusLabel"));
  status_->setWordWrap(true);
  layout->addWidget(status_);
  best_ = new QLabel;
  best_->setObjectName(QStringLiteral("sweepBestLabel"));
  best_->setWordWrap(true);
  best_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(best_);

  auto* split = new QSplitter(Qt::Vertical);
  tabs_ = new QTabWidget;
  tabs_->setObjectName(QStringLiteral("sweepTabs"));
  coords_ = new ParallelCoordinates;
  tabs_->addTab(coords_, Tr::tr("Parallel coordinates"));
  auto* scatter_page = new QWidget;
  auto* scatter_layout = new QVBoxLayout(scatter_page);
  auto* scatter_top = new QHBoxLayout;
  scatter_top->addWidget(new QLabel(Tr::tr("Objective against:")));
  scatter_parameter_ = new QComboBox;
  scatter_parameter_->setObjectName(QStringLiteral("sweepScatterParameterCombo"));
  scatter_top->addWidget(scatter_parameter_, 1);
  scatter_layout->addLayout(scatter_top);
  scatter_ = new QCustomPlot;
  scatter_->setObjectName(QStringLiteral("sweepScatterPlot"));
  scatter_->setMinimumHeight(160);
  // the legend in a row of its own above the axes: inside, it hid points of a U
  scatter_->plotLayout()->insertRow(0);
  auto* legend_row = new QCPLayoutGrid;
  scatter_->plotLayout()->addElement(0, 0, legend_row);
  legend_row->setMargins(QMargins(0, 0, 0, 0));
  legend_row->addElement(0, 0, scatter_->legend);
  scatter_->legend->setFillOrder(QCPLegend::foColumnsFirst);
  scatter_->plotLayout()->setRowStretchFactor(0, 0.001);
  scatter_->legend->setBorderPen(Qt::NoPen);
  scatter_layout->addWidget(scatter_, 1);
  tabs_->addTab(scatter_page, Tr::tr("Objective vs parameter"));
  auto* importance_page = new QWidget;
  auto* importance_layout = new QVBoxLayout(importance_page);
  auto* importance_note = new QLabel(
      Tr::tr("Importance here is Spearman's rank correlation (rho) between each parameter and "
             "the objective over the finished trials: rho near +1 or -1, the objective rises "
             "or falls steadily with the parameter; near 0, no steady trend. An effect with an "
             "optimum in the middle (a learning rate too small or too large) can show a rho "
             "near 0: look at the scatter."));
  importance_note->setWordWrap(true);
  importance_layout->addWidget(importance_note);
  importance_ = new QTableWidget(0, 3);
  importance_->setObjectName(QStringLiteral("sweepImportanceTable"));
  importance_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  importance_->verticalHeader()->hide();
  importance_->horizontalHeader()->setStretchLastSection(true);
  importance_layout->addWidget(importance_, 1);
  tabs_->addTab(importance_page, Tr::tr("Importance"));
  seeds_ = new QTableWidget(0, 0);
  seeds_->setObjectName(QStringLiteral("sweepSeedsTable"));
  seeds_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  seeds_->verticalHeader()->hide();
  seeds_->horizontalHeader()->setStretchLastSection(true);
  tabs_->addTab(seeds_, Tr::tr("Over seeds"));
  tabs_->setTabVisible(3, false);
  split->addWidget(tabs_);

  auto* bottom = new QWidget;
  auto* bottom_layout = new QVBoxLayout(bottom);
  bottom_layout->setContentsMargins(0, 0, 0, 0);
  model_ = new SweepTrialsModel(this);
  filter_ = new SweepTrialsFilter(this);
  filter_->setSourceModel(model_);
  filter_->setSortRole(Qt::UserRole);
  table_ = new QTableView;
  table_->setObjectName(QStringLiteral("sweepTrialsTable"));
  table_->setModel(filter_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(0, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setStretchLastSection(true);
  bottom_layout->addWidget(table_, 1);
  auto* buttons = new QHBoxLayout;
  open_ = new QPushButton(Tr::tr("Open in training view"));
  open_->setObjectName(QStringLiteral("openTrialButton"));
  beside_ = new QPushButton(Tr::tr("Beside the live run"));
  beside_->setObjectName(QStringLiteral("besideLiveButton"));
  compare_ = new QPushButton(Tr::tr("Compare curves"));
  compare_->setObjectName(QStringLiteral("compareTrialsButton"));
  auto* clear = new QPushButton(Tr::tr("Clear filters"));
  clear->setObjectName(QStringLiteral("clearBrushesButton"));
  for (QPushButton* b : {open_, beside_, compare_, clear}) buttons->addWidget(b);
  buttons->addStretch(1);
  bottom_layout->addLayout(buttons);
  split->addWidget(bottom);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);

  connect(sweeps_, &QComboBox::activated, this, [this](int i) {
    const QString dir = sweeps_->itemData(i).toString();
    if (!dir.isEmpty() && dir != dir_) openSweep(dir);
  });
  connect(open_folder, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, Tr::tr("Open a sweep folder"),
                                                          dir_.isEmpty() ? root_ : dir_);
    QString error;
    if (!dir.isEmpty() && !openSweep(dir, &error)) status_->setText(error);
  });
  connect(coords_, &ParallelCoordinates::brushChanged, this, &SweepsWindow::onBrush);
  connect(clear, &QPushButton::clicked, coords_, &ParallelCoordinates::clearBrushes);
  connect(scatter_parameter_, &QComboBox::currentIndexChanged, this, &SweepsWindow::fillScatter);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &SweepsWindow::onSelection);
  connect(table_, &QTableView::doubleClicked, this, [this] {
    const QStringList dirs = selectedRunDirs();
    if (dirs.size() == 1) emit openRequested(dirs.front());
  });
  connect(open_, &QPushButton::clicked, this, [this] {
    const QStringList dirs = selectedRunDirs();
    if (dirs.size() == 1) emit openRequested(dirs.front());
  });
  connect(beside_, &QPushButton::clicked, this, [this] {
    const QStringList dirs = selectedRunDirs();
    if (dirs.size() == 1) emit ghostRequested(dirs.front());
  });
  connect(compare_, &QPushButton::clicked, this, [this] {
    if (auto* d = compareSelected()) d->show();
  });
  timer_ = new QTimer(this);
  timer_->setInterval(1000);
  connect(timer_, &QTimer::timeout, this, [this] {
    if (!isVisible()) return;
    refresh();
    // a new sweep folder changes the root's mtime: only then is the root listed again
    const qint64 root_mtime = QFileInfo(root_).lastModified().toMSecsSinceEpoch();
    // (a change younger than 2 s is looked at again: the sweep.json of a folder just made
    // comes a moment after the folder)
    if (root_mtime != root_mtime_ && !sweeps_->view()->isVisible()) {
      if (QDateTime::currentMSecsSinceEpoch() - root_mtime > 2000) root_mtime_ = root_mtime;
      if (sweepDirs() != listed_) rescan();
    }
  });
  timer_->start();
  rescan();
  onSelection();
}

SweepsWindow::~SweepsWindow() {
  // The table's model points into view_, which dies before QDialog's destructor hides (and so
  // asks) the table: detach it first.
  timer_->stop();
  model_->setView(nullptr);
}

QStringList SweepsWindow::sweepDirs() const {
  QList<QFileInfo> found;
  const QDir root(root_);
  for (const QFileInfo& d : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot))
    if (QFileInfo::exists(d.absoluteFilePath() + QStringLiteral("/sweep.json")))
      found.append(QFileInfo(d.absoluteFilePath() + QStringLiteral("/sweep.json")));
  std::sort(found.begin(), found.end(), [](const QFileInfo& a, const QFileInfo& b) {
    return a.lastModified() > b.lastModified();
  });
  QStringList dirs;
  for (const QFileInfo& f : found) dirs.append(f.absolutePath());
  return dirs;
}

void SweepsWindow::rescan() {
  QStringList dirs = sweepDirs();
  listed_ = dirs;
  if (!dir_.isEmpty() && !dirs.contains(dir_)) dirs.prepend(dir_);
  sweeps_->clear();
  for (const QString& d : dirs) sweeps_->addItem(QFileInfo(d).fileName(), d);
  if (dirs.isEmpty()) {
    sweeps_->addItem(Tr::tr("(no sweep in %1)").arg(QDir::toNativeSeparators(root_)), QString());
    status_->setText(Tr::tr("A sweep tries many settings as a queue of runs. Start one with File "
                            "> New sweep..., or with trainscope-cli sweep FILE."));
  } else if (dir_.isEmpty()) {
    openSweep(dirs.front());
  }
  const int i = sweeps_->findData(dir_);
  if (i >= 0) sweeps_->setCurrentIndex(i);
}

bool SweepsWindow::openSweep(const QString& dir, QString* error) {
  try {
    auto view = std::make_unique<SweepView>(readSweepView(dir.toStdString()));
    const QString abs = q(view->dir.string());
    const bool same = abs == dir_;
    model_->setView(nullptr);
    view_ = std::move(view);
    dir_ = abs;
    if (!same) {
      scatter_parameter_->blockSignals(true);
      scatter_parameter_->clear();
      for (const SweepAxis& a : view_->axes) scatter_parameter_->addItem(q(a.key), q(a.key));
      scatter_parameter_->blockSignals(false);
      coords_->setData({}, {}, false);
    }
    QFileInfo trials(dir_ + QStringLiteral("/trials.jsonl"));
    seen_size_ = trials.size();
    seen_mtime_ = trials.lastModified().toMSecsSinceEpoch();
    if (sweeps_->findData(dir_) < 0) sweeps_->insertItem(0, QFileInfo(dir_).fileName(), dir_);
    sweeps_->setCurrentIndex(sweeps_->findData(dir_));
    rebuild();
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
}

bool SweepsWindow::refresh() {
  if (dir_.isEmpty()) return false;
  QFileInfo trials(dir_ + QStringLiteral("/trials.jsonl"));
  if (trials.size() == seen_size_ && trials.lastModified().toMSecsSinceEpoch() == seen_mtime_)
    return false;
  const QList<qint64> selected = [this] {
    QList<qint64> out;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows())
      out.append(model_->trial(filter_->mapToSource(i).row()).trial);
    return out;
  }();
  if (!openSweep(dir_)) return false;
  selectTrials(selected);
  return true;
}

void SweepsWindow::rebuild() {
  const SweepView& v = *view_;
  model_->setView(view_.get());
  table_->resizeColumnsToContents();
  // parallel coordinates: the varied values, then the objective
  std::vector<ParallelCoordinates::Axis> axes;
  for (const SweepAxis& a : v.axes) {
    ParallelCoordinates::Axis axis;
    axis.title = q(a.key);
    axis.low = a.low;
    axis.high = a.high;
    axis.log = a.log;
    if (a.categorical)
      for (const auto& c : a.choices) axis.categories.append(choiceText(c));
    axes.push_back(axis);
  }
  ParallelCoordinates::Axis objective;
  objective.title = q(v.metric);
  objective.objective = true;
  double lo = INFINITY, hi = -INFINITY;
  for (const TrialLine& t : v.trials)
    if (t.objective && std::isfinite(*t.objective)) {
      lo = std::min(lo, *t.objective);
      hi = std::max(hi, *t.objective);
    }
  objective.low = std::isfinite(lo) ? lo : 0;
  objective.high = std::isfinite(hi) ? hi : 1;
  axes.push_back(objective);
  std::vector<std::vector<std::optional<double>>> rows;
  rows.reserve(v.trials.size());
  for (const TrialLine& t : v.trials) {
    std::vector<std::optional<double>> row;
    for (const SweepAxis& a : v.axes)
      row.push_back(t.values.contains(a.key) ? axisValue(a, t.values[a.key]) : std::nullopt);
    row.push_back(t.objective && std::isfinite(*t.objective) ? t.objective : std::nullopt);
    rows.push_back(std::move(row));
  }
  coords_->setData(axes, rows, v.maximize);
  onBrush();
  fillScatter();
  fillImportance();
  const std::vector<ConfigResult> configs = v.seeds > 1 ? configResults(v) : std::vector<ConfigResult>{};
  fillSeeds(configs);
  if (const TrialLine* b = bestTrial(v)) {
    QStringList values;
    for (const auto& [key, value] : b->values.items())
      values.append(q(key) + QLatin1Char('=') + choiceText(value));
    best_->setText(Tr::tr("Best: trial %1, %2 %3 (%4)")
                       .arg(b->trial)
                       .arg(q(v.metric), q(formatHuman(*b->objective)), values.join(QStringLiteral(", "))));
  } else {
    best_->setText(Tr::tr("Best: none yet (no trial has a value for %1)").arg(q(v.metric)));
  }
  if (v.seeds > 1) {
    if (!configs.empty() && configs.front().mean) {
      const ConfigResult& c = configs.front();
      QStringList values;
      for (const auto& [key, value] : c.values.items())
        values.append(q(key) + QLatin1Char('=') + choiceText(value));
      best_->setText(best_->text() + QLatin1Char('\n') +
                     Tr::tr("Best configuration over its seeds: %1 %2 ± %3 over %4 seeds (%5)")
                         .arg(q(v.metric), q(formatHuman(*c.mean)),
                              c.std ? q(formatHuman(*c.std)) : QStringLiteral("-"))
                         .arg(c.n)
                         .arg(values.join(QStringLiteral(", "))));
    }
  }
  retranslateStatus();
}

void SweepsWindow::retranslateStatus() {
  const SweepView& v = *view_;
  int queued = 0, running = 0, done = 0, pruned = 0, failed = 0;
  for (const TrialLine& t : v.trials) {
    if (t.state == "queued") ++queued;
    else if (t.state == "running") ++running;
    else if (t.state == "completed") ++done;
    else if (t.state == "pruned") ++pruned;
    else ++failed;
  }
  status_->setText(
      Tr::tr("%1: %2 trials (%3 running, %4 queued, %5 completed, %6 pruned, %7 failed) · "
             "method %8 · objective %9 (%10) · %11")
          .arg(q(v.name))
          .arg(v.trials.size())
          .arg(running)
          .arg(queued)
          .arg(done)
          .arg(pruned)
          .arg(failed)
          .arg(q(v.method), q(v.metric),
               v.maximize ? Tr::tr("higher is better") : Tr::tr("lower is better"),
               v.executor == "slurm" ? Tr::tr("on Slurm") : Tr::tr("on this machine")));
}

void SweepsWindow::onBrush() {
  std::vector<char> passing(view_->trials.size());
  for (size_t i = 0; i < passing.size(); ++i) passing[i] = coords_->passes(i);
  filter_->setPassing(std::move(passing));
}

void SweepsWindow::onSelection() {
  const QModelIndexList rows = table_->selectionModel()->selectedRows();
  const int runs = static_cast<int>(selectedRunDirs().size());  // queued trials have none yet
  open_->setEnabled(rows.size() == 1 && runs == 1);
  beside_->setEnabled(rows.size() == 1 && runs == 1);
  compare_->setEnabled(runs >= 2 && runs <= 10);
  coords_->setHighlighted(rows.size() == 1 ? filter_->mapToSource(rows.front()).row() : -1);
}

QStringList SweepsWindow::selectedRunDirs() const {
  QStringList dirs;
  for (const QModelIndex& i : table_->selectionModel()->selectedRows()) {
    const TrialLine& t = model_->trial(filter_->mapToSource(i).row());
    if (!t.run.empty() && t.state != "queued")
      dirs.append(dir_ + QLatin1Char('/') + q(t.run));
  }
  return dirs;
}

QList<qint64> SweepsWindow::shownTrials() const {
  QList<qint64> out;
  for (int r = 0; r < filter_->rowCount(); ++r)
    out.append(model_->trial(filter_->mapToSource(filter_->index(r, 0)).row()).trial);
  return out;
}

void SweepsWindow::selectTrials(const QList<qint64>& trials) {
  table_->clearSelection();
  for (int r = 0; r < filter_->rowCount(); ++r) {
    const QModelIndex i = filter_->index(r, 0);
    if (trials.contains(model_->trial(filter_->mapToSource(i).row()).trial))
      table_->selectionModel()->select(i, QItemSelectionModel::Select | QItemSelectionModel::Rows);
  }
  onSelection();
}

RunsOverlayDialog* SweepsWindow::compareSelected() {
  const QStringList dirs = selectedRunDirs();
  if (dirs.size() < 2 || dirs.size() > 10) return nullptr;
  auto* dialog = new RunsOverlayDialog(dirs, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  return dialog;
}

void SweepsWindow::fillScatter() {
  scatter_->clearGraphs();
  scatter_->clearItems();
  scatter_points_ = nullptr;
  const int i = scatter_parameter_->currentIndex();
  const SweepView& v = *view_;
  if (i < 0 || i >= static_cast<int>(v.axes.size())) {
    scatter_->replot();
    return;
  }
  const SweepAxis& axis = v.axes[i];
  QCPGraph* points = scatter_points_ = scatter_->addGraph();
  points->setLineStyle(QCPGraph::lsNone);
  points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, palette::kTrain, 7));
  points->setName(Tr::tr("trials"));
  QCPGraph* best = scatter_->addGraph();
  best->setLineStyle(QCPGraph::lsNone);
  best->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssStar, palette::kBest, 14));
  best->setName(Tr::tr("best trial"));
  const TrialLine* b = bestTrial(v);
  QVector<double> xs, ys;
  for (const TrialLine& t : v.trials) {
    if (!t.objective || !std::isfinite(*t.objective) || !t.values.contains(axis.key)) continue;
    const auto x = axisValue(axis, t.values[axis.key]);
    if (!x || (axis.log && *x <= 0)) continue;
    xs.append(*x);
    ys.append(*t.objective);
    if (b && t.trial == b->trial) best->addData(*x, *t.objective);
  }
  points->setData(xs, ys);
  scatter_->xAxis->setLabel(q(axis.key));
  scatter_->yAxis->setLabel(q(v.metric));
  if (axis.log) {
    scatter_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    scatter_->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
  } else if (axis.categorical) {
    scatter_->xAxis->setScaleType(QCPAxis::stLinear);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (size_t c = 0; c < axis.choices.size(); ++c) ticker->addTick(c, choiceText(axis.choices[c]));
    scatter_->xAxis->setTicker(ticker);
  } else {
    scatter_->xAxis->setScaleType(QCPAxis::stLinear);
    scatter_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
  }
  scatter_->rescaleAxes();
  if (axis.log) {
    const QCPRange r = scatter_->xAxis->range();
    scatter_->xAxis->setRange(r.lower / 1.6, r.upper * 1.6);
  } else {
    scatter_->xAxis->scaleRange(1.15, scatter_->xAxis->range().center());
  }
  scatter_->yAxis->scaleRange(1.15, scatter_->yAxis->range().center());
  scatter_->legend->setVisible(b != nullptr);
  scatter_->replot();
}

void SweepsWindow::fillSeeds(const std::vector<ConfigResult>& configs) {
  const SweepView& v = *view_;
  tabs_->setTabVisible(3, v.seeds > 1);
  seeds_->clear();
  seeds_->setRowCount(0);
  if (v.seeds <= 1) return;
  QStringList headers = {Tr::tr("configuration")};
  for (const SweepAxis& a : v.axes)
    if (a.key != "training.seed" && a.key != "data.seed") headers << q(a.key);
  headers << Tr::tr("%1 mean ± std").arg(q(v.metric)) << Tr::tr("seeds counted") << Tr::tr("trials");
  seeds_->setColumnCount(headers.size());
  seeds_->setHorizontalHeaderLabels(headers);
  seeds_->setRowCount(static_cast<int>(configs.size()));
  for (int r = 0; r < static_cast<int>(configs.size()); ++r) {
    const ConfigResult& c = configs[r];
    int col = 0;
    seeds_->setItem(r, col++, new QTableWidgetItem(QString::number(c.config)));
    for (const SweepAxis& a : v.axes)
      if (a.key != "training.seed" && a.key != "data.seed")
        seeds_->setItem(r, col++, new QTableWidgetItem(c.values.contains(a.key) ? choiceText(c.values[a.key])
                                                                                : QStringLiteral("-")));
    const QString mean = !c.mean ? QStringLiteral("-")
                         : c.std ? q(formatHuman(*c.mean)) + QStringLiteral(" ± ") + q(formatHuman(*c.std))
                                 : q(formatHuman(*c.mean));
    seeds_->setItem(r, col++, new QTableWidgetItem(mean));
    seeds_->setItem(r, col++, new QTableWidgetItem(QStringLiteral("%1/%2").arg(c.n).arg(c.trials.size())));
    QStringList trials;
    for (int64_t t : c.trials) trials << QString::number(t);
    seeds_->setItem(r, col++, new QTableWidgetItem(trials.join(QStringLiteral(", "))));
  }
  seeds_->resizeColumnsToContents();
}

QStringList SweepsWindow::seedRows() const {
  QStringList rows;
  for (int r = 0; r < seeds_->rowCount(); ++r) {
    QStringList cells;
    for (int c = 1; c < seeds_->columnCount(); ++c)
      cells << (seeds_->item(r, c) ? seeds_->item(r, c)->text() : QString());
    rows << cells.join(QStringLiteral(" | "));
  }
  return rows;
}

void SweepsWindow::fillImportance() {
  importance_->clear();
  importance_->setHorizontalHeaderLabels(
      {Tr::tr("parameter"), Tr::tr("Spearman's rho with the objective"), Tr::tr("trials counted")});
  const auto rows = parameterImportance(*view_);
  importance_->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    importance_->setItem(r, 0, new QTableWidgetItem(q(rows[r].key)));
    const QString none = rows[r].none_because == "choices without an order"
                             ? Tr::tr("- (choices without an order)")
                         : rows[r].none_because == "constant" ? Tr::tr("- (one value only)")
                                                              : Tr::tr("- (too few trials)");
    importance_->setItem(r, 1, new QTableWidgetItem(rows[r].rho ? QString::number(*rows[r].rho, 'f', 3) : none));
    importance_->setItem(r, 2, new QTableWidgetItem(QString::number(rows[r].n)));
  }
  importance_->resizeColumnsToContents();
}

bool SweepsWindow::setScatterParameter(const QString& key) {
  const int i = scatter_parameter_->findData(key);
  if (i < 0) return false;
  scatter_parameter_->setCurrentIndex(i);
  fillScatter();
  return true;
}

QList<QPointF> SweepsWindow::scatterPoints() const {
  QList<QPointF> out;
  if (!scatter_points_) return out;
  for (auto it = scatter_points_->data()->constBegin(); it != scatter_points_->data()->constEnd(); ++it)
    out.append(QPointF(it->key, it->value));
  return out;
}

bool SweepsWindow::scatterLogX() const {
  return scatter_->xAxis->scaleType() == QCPAxis::stLogarithmic;
}

QString SweepsWindow::bestText() const { return best_->text(); }

QList<QPair<QString, double>> SweepsWindow::importance() const {
  QList<QPair<QString, double>> out;
  for (const auto& p : parameterImportance(*view_))
    if (p.rho) out.append({q(p.key), *p.rho});
  return out;
}

void SweepsWindow::showTab(int index) { tabs_->setCurrentIndex(index); }

}  // namespace trainscope
