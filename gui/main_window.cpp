#include "gui/main_window.h"

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QUrl>
#include <QVBoxLayout>
#include <cmath>
#include <filesystem>

#include "core/config/config_json.h"
#include "core/errors.h"
#include "core/io/run_dir.h"
#include "gui/device_panel.h"
#include "gui/scientific_spin_box.h"
#include "gui/live_plot.h"
#include "gui/run_summary_panel.h"
#include "gui/settings_panel.h"
#include "gui/translations.h"

namespace trainscope {

namespace {

constexpr int kFlushIntervalMs = 33;  // ~30 Hz redraw, whatever the step rate
constexpr int kMaxEventLines = 2000;  // bounded events panel
constexpr int kMaxEpochMarkers = 60;  // above this many epochs, no per-epoch markers

const QColor kTrainColor(31, 119, 180);
const QColor kValColor(255, 127, 14);
const QColor kGradColor(44, 160, 44);
const QColor kClippedColor(148, 103, 189);
const QColor kThresholdColor(214, 39, 40);

/// NaN/inf become NaN, which QCustomPlot draws as a gap.
double plottable(double v) {
  return std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN();
}

QString formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("–");
  const qint64 s = static_cast<qint64>(std::llround(seconds));
  if (s >= 3600) {
    return QStringLiteral("%1:%2:%3")
        .arg(s / 3600)
        .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
        .arg(s % 60, 2, 10, QLatin1Char('0'));
  }
  return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  initGuiResources();
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/trainscope.svg")));
  controller_ = new TrainingController(this);
  device_info_ = probeDevices();

  QSettings settings;
  runs_root_ = settings.value(QStringLiteral("runsRoot"), defaultRunsRoot()).toString();

  buildUi();
  buildMenus();
  setupPlots();

  connect(controller_, &TrainingController::stateChanged, this, &MainWindow::onStateChanged);
  connect(controller_, &TrainingController::runStarted, this, &MainWindow::onRunStarted);
  connect(controller_, &TrainingController::stepRecorded, this, &MainWindow::onStepRecorded);
  connect(controller_, &TrainingController::epochFinished, this, &MainWindow::onEpochFinished);
  connect(controller_, &TrainingController::eventOccurred, this, &MainWindow::onEventOccurred);
  connect(controller_, &TrainingController::runFinished, this, &MainWindow::onRunFinished);
  connect(controller_, &TrainingController::runFailed, this, &MainWindow::onRunFailed);

  flush_timer_.setInterval(kFlushIntervalMs);
  connect(&flush_timer_, &QTimer::timeout, this, &MainWindow::flushPlots);

  updateActions();
  setWindowTitle(tr("TrainScope"));
  // 1600x1000 where the screen allows it, else the available screen area.
  QSize size(1600, 1000);
  if (const QScreen* s = screen()) size = size.boundedTo(s->availableGeometry().size());
  resize(size);
}

MainWindow::~MainWindow() {
  // Join the training thread before any widget it reports to goes away.
  disconnect(controller_, nullptr, this, nullptr);
  controller_->shutdown();
}

QString MainWindow::defaultRunsRoot() {
  QString base = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  if (base.isEmpty()) base = QStandardPaths::writableLocation(QStandardPaths::HomeLocation);
  if (base.isEmpty()) base = QDir::homePath();
  return QDir(base).filePath(QStringLiteral("TrainScope/runs"));
}

void MainWindow::setRunsRoot(const QString& dir) { runs_root_ = dir; }

void MainWindow::buildUi() {
  // ---- left column: settings, run controls, device, data and model ----
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  left_layout->setContentsMargins(6, 6, 6, 6);
  settings_ = new SettingsPanel(left);
  left_layout->addWidget(settings_);

  auto* run_box = new QGroupBox(tr("Run"), left);
  run_box->setObjectName(QStringLiteral("runPanel"));
  auto* run_grid = new QGridLayout(run_box);
  start_button_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Start"));
  start_button_->setObjectName(QStringLiteral("startButton"));
  start_button_->setToolTip(tr("Start a new training run with the settings above."));
  pause_button_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPause), tr("Pa&use"));
  pause_button_->setObjectName(QStringLiteral("pauseButton"));
  pause_button_->setToolTip(tr("Pause training after the current batch; press again to resume."));
  step_button_ =
      new QPushButton(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Step &batch"));
  step_button_->setObjectName(QStringLiteral("stepButton"));
  step_button_->setToolTip(
      tr("Train exactly one batch, then pause. Without a run, starts a new "
         "run and pauses after its first batch."));
  step_epoch_button_ =
      new QPushButton(style()->standardIcon(QStyle::SP_MediaSkipForward), tr("Step &epoch"));
  step_epoch_button_->setObjectName(QStringLiteral("stepEpochButton"));
  step_epoch_button_->setToolTip(
      tr("Train to the end of the current epoch (validation "
         "included), then pause."));
  stop_button_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("S&top"));
  stop_button_->setObjectName(QStringLiteral("stopButton"));
  stop_button_->setToolTip(tr("End the run now. Its files (metrics, summary) are kept."));
  run_grid->addWidget(start_button_, 0, 0);
  run_grid->addWidget(pause_button_, 0, 1);
  run_grid->addWidget(stop_button_, 0, 2);
  run_grid->addWidget(step_button_, 1, 0);
  run_grid->addWidget(step_epoch_button_, 1, 1);
  left_layout->addWidget(run_box);
  connect(start_button_, &QPushButton::clicked, this, &MainWindow::startRun);
  connect(pause_button_, &QPushButton::clicked, this, &MainWindow::togglePause);
  connect(step_button_, &QPushButton::clicked, this, &MainWindow::stepBatch);
  connect(step_epoch_button_, &QPushButton::clicked, this, &MainWindow::stepEpoch);
  connect(stop_button_, &QPushButton::clicked, this, &MainWindow::stopRun);

  device_panel_ = new DevicePanel(device_info_, left);
  left_layout->addWidget(device_panel_);
  summary_panel_ = new RunSummaryPanel(left);
  left_layout->addWidget(summary_panel_);
  left_layout->addStretch(1);

  auto* left_scroll = new QScrollArea;
  left_scroll->setWidget(left);
  left_scroll->setWidgetResizable(true);
  left_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  left_scroll->setFrameShape(QFrame::NoFrame);
  left_scroll->setMinimumWidth(360);

  // ---- right column: progress, run folder, plots ----
  auto* right = new QWidget;
  auto* right_layout = new QVBoxLayout(right);
  right_layout->setContentsMargins(6, 6, 6, 0);
  auto* progress_row = new QHBoxLayout;
  progress_ = new QProgressBar(right);
  progress_->setObjectName(QStringLiteral("runProgressBar"));
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setFormat(QStringLiteral("%p%"));
  progress_->setToolTip(tr("How much of the run is done (steps done of all planned steps)."));
  time_label_ = new QLabel(right);
  time_label_->setObjectName(QStringLiteral("timeLabel"));
  time_label_->setToolTip(tr("Time since the run started, and the estimated time left."));
  progress_row->addWidget(progress_, 1);
  progress_row->addWidget(time_label_);
  right_layout->addLayout(progress_row);

  auto* dir_row = new QHBoxLayout;
  auto* dir_caption = new QLabel(tr("Run folder:"), right);
  run_dir_label_ = new QLabel(right);
  run_dir_label_->setObjectName(QStringLiteral("runDirLabel"));
  run_dir_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  run_dir_label_->setToolTip(
      tr("Where this run's files are written: config, metrics, steps, "
         "events and summary."));
  run_dir_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  open_folder_button_ =
      new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open folder"), right);
  open_folder_button_->setObjectName(QStringLiteral("openRunFolderButton"));
  open_folder_button_->setToolTip(tr("Open the run folder in the file manager."));
  connect(open_folder_button_, &QPushButton::clicked, this, &MainWindow::onOpenRunFolder);
  dir_row->addWidget(dir_caption);
  dir_row->addWidget(run_dir_label_, 1);
  dir_row->addWidget(open_folder_button_);
  right_layout->addLayout(dir_row);

  loss_plot_ = new LivePlot(right);
  loss_plot_->setObjectName(QStringLiteral("lossPlot"));
  loss_plot_->setToolTip(
      tr("Loss against optimizer step. Drag to pan, scroll to zoom, "
         "double-click to follow the data again."));
  grad_plot_ = new LivePlot(right);
  grad_plot_->setObjectName(QStringLiteral("gradNormPlot"));
  grad_plot_->setToolTip(
      tr("Total gradient norm against optimizer step, before and after "
         "clipping. Drag to pan, scroll to zoom, double-click to follow the "
         "data again."));

  auto* grad_box = new QWidget(right);
  auto* grad_layout = new QVBoxLayout(grad_box);
  grad_layout->setContentsMargins(0, 0, 0, 0);
  grad_layout->setSpacing(2);
  log_scale_ = new QCheckBox(tr("Logarithmic y axis"), grad_box);
  log_scale_->setObjectName(QStringLiteral("gradNormLogCheckBox"));
  log_scale_->setToolTip(
      tr("Show the gradient norm on a logarithmic scale, so small and very "
         "large values are both visible."));
  connect(log_scale_, &QCheckBox::toggled, this, &MainWindow::onLogScaleToggled);
  auto* grad_header = new QHBoxLayout;
  grad_header->addStretch(1);
  grad_header->addWidget(log_scale_);
  grad_layout->addLayout(grad_header);
  grad_layout->addWidget(grad_plot_, 1);

  auto* plots = new QSplitter(Qt::Vertical, right);
  plots->addWidget(loss_plot_);
  plots->addWidget(grad_box);
  plots->setStretchFactor(0, 3);
  plots->setStretchFactor(1, 2);
  plots->setChildrenCollapsible(false);
  right_layout->addWidget(plots, 1);

  auto* columns = new QSplitter(Qt::Horizontal);
  columns->addWidget(left_scroll);
  columns->addWidget(right);
  columns->setStretchFactor(0, 0);
  columns->setStretchFactor(1, 1);
  columns->setSizes({400, 1200});
  columns->setChildrenCollapsible(false);

  // ---- bottom: events ----
  auto* events_box = new QGroupBox(tr("Events"));
  auto* events_layout = new QVBoxLayout(events_box);
  events_layout->setContentsMargins(4, 4, 4, 4);
  events_ = new QListWidget(events_box);
  events_->setObjectName(QStringLiteral("eventsPanel"));
  events_->setToolTip(
      tr("What happened during the runs: starts, pauses, warnings such as "
         "non-finite losses, errors and results."));
  events_->setWordWrap(true);
  events_->setUniformItemSizes(false);
  events_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  events_layout->addWidget(events_);

  auto* vertical = new QSplitter(Qt::Vertical);
  vertical->addWidget(columns);
  vertical->addWidget(events_box);
  vertical->setStretchFactor(0, 1);
  vertical->setStretchFactor(1, 0);
  vertical->setSizes({860, 120});
  vertical->setChildrenCollapsible(false);
  setCentralWidget(vertical);

  // ---- status bar ----
  epoch_status_ = new QLabel(this);
  epoch_status_->setToolTip(tr("The epoch being trained (or the last one), of the planned epochs."));
  step_status_ = new QLabel(this);
  step_status_->setToolTip(tr("Optimizer steps (batches) done so far."));
  metrics_status_ = new QLabel(this);
  metrics_status_->setToolTip(
      tr("Validation result and learning rate of the last finished epoch."));
  speed_status_ = new QLabel(this);
  speed_status_->setToolTip(tr("Training throughput of the last epoch."));
  seed_status_ = new QLabel(this);
  seed_status_->setObjectName(QStringLiteral("seedLabel"));
  seed_status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  seed_status_->setToolTip(
      tr("The random seed of this run; put it in the settings to repeat "
         "the run exactly. You can select and copy it."));
  statusBar()->addPermanentWidget(epoch_status_);
  statusBar()->addPermanentWidget(step_status_);
  statusBar()->addPermanentWidget(metrics_status_);
  statusBar()->addPermanentWidget(speed_status_);
  statusBar()->addPermanentWidget(seed_status_);
  resetRunView();
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  open_config_action_ = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton),
                                        tr("&Open config..."), this, &MainWindow::onOpenConfig);
  open_config_action_->setObjectName(QStringLiteral("actionOpenConfig"));
  open_config_action_->setShortcut(QKeySequence::Open);
  open_config_action_->setToolTip(tr("Load settings from a JSON config file."));
  open_config_action_->setStatusTip(open_config_action_->toolTip());
  save_config_action_ = file->addAction(style()->standardIcon(QStyle::SP_DialogSaveButton),
                                        tr("&Save config..."), this, &MainWindow::onSaveConfig);
  save_config_action_->setObjectName(QStringLiteral("actionSaveConfig"));
  save_config_action_->setShortcut(QKeySequence::Save);
  save_config_action_->setToolTip(tr("Save the current settings as a JSON config file."));
  save_config_action_->setStatusTip(save_config_action_->toolTip());
  file->addSeparator();
  open_run_folder_action_ =
      file->addAction(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open &run folder"), this,
                      &MainWindow::onOpenRunFolder);
  open_run_folder_action_->setObjectName(QStringLiteral("actionOpenRunFolder"));
  open_run_folder_action_->setToolTip(tr("Open the current run's folder in the file manager."));
  open_run_folder_action_->setStatusTip(open_run_folder_action_->toolTip());
  runs_root_action_ =
      file->addAction(tr("Choose runs &location..."), this, &MainWindow::onChooseRunsRoot);
  runs_root_action_->setObjectName(QStringLiteral("actionChooseRunsRoot"));
  runs_root_action_->setToolTip(
      tr("Choose the folder under which every run gets its own "
         "folder."));
  runs_root_action_->setStatusTip(runs_root_action_->toolTip());
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setObjectName(QStringLiteral("actionQuit"));
  quit->setShortcut(QKeySequence::Quit);
  quit->setStatusTip(tr("Close TrainScope."));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* about = help->addAction(tr("&About TrainScope"), this, [this] {
    QMessageBox::about(
        this, tr("About TrainScope"),
        tr("<b>TrainScope %1</b><p>Train neural networks with libtorch %2 and watch losses and "
           "gradients live.</p>")
            .arg(QString::fromStdString(device_info_.trainscope_version),
                 QString::fromStdString(device_info_.torch_version)));
  });
  about->setObjectName(QStringLiteral("actionAbout"));
}

void MainWindow::setupPlots() {
  // Loss: per-step training loss drawn light, per-epoch train/val bold at the epoch's step.
  loss_plot_->xAxis->setLabel(tr("Step"));
  loss_plot_->yAxis->setLabel(tr("Loss"));
  QCPGraph* step_loss = loss_plot_->addGraph();
  step_loss->setName(tr("Training loss (per step)"));
  QColor light = kTrainColor;
  light.setAlpha(70);
  step_loss->setPen(QPen(light, 1));
  step_loss->setAdaptiveSampling(true);
  QCPGraph* train = loss_plot_->addGraph();
  train->setName(tr("Training loss (epoch)"));
  train->setPen(QPen(kTrainColor, 2.5));
  train->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kTrainColor, Qt::white, 6));
  QCPGraph* val = loss_plot_->addGraph();
  val->setName(tr("Validation loss (epoch)"));
  val->setPen(QPen(kValColor, 2.5));
  val->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kValColor, Qt::white, 6));

  // Gradient norm: before and after clipping, plus the clipping threshold.
  grad_plot_->xAxis->setLabel(tr("Step"));
  grad_plot_->yAxis->setLabel(tr("Gradient norm"));
  // The clipped norm is drawn first, wide and translucent, so that with clipping off (both
  // curves equal) the raw norm stays visible on top of it.
  QCPGraph* clipped = grad_plot_->addGraph();
  clipped->setName(tr("Gradient norm used (after clipping)"));
  QColor clipped_color = kClippedColor;
  clipped_color.setAlpha(150);
  clipped->setPen(QPen(clipped_color, 3));
  clipped->setAdaptiveSampling(true);
  QCPGraph* grad = grad_plot_->addGraph();
  grad->setName(tr("Gradient norm (before clipping)"));
  grad->setPen(QPen(kGradColor, 1));
  grad->setAdaptiveSampling(true);
  QCPGraph* threshold = grad_plot_->addGraph();
  threshold->setName(tr("Clipping max norm"));
  threshold->setPen(QPen(kThresholdColor, 2, Qt::DashLine));
  threshold->removeFromLegend();

  for (LivePlot* plot : {loss_plot_, grad_plot_}) {
    QFont legend_font = font();
    legend_font.setPointSizeF(font().pointSizeF() * 0.9);
    plot->legend->setFont(legend_font);
    plot->replot();
  }
}

void MainWindow::onLogScaleToggled(bool logarithmic) {
  if (logarithmic) {
    grad_plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    grad_plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    grad_plot_->yAxis->setNumberFormat(QStringLiteral("eb"));
    grad_plot_->yAxis->setNumberPrecision(0);
  } else {
    grad_plot_->yAxis->setScaleType(QCPAxis::stLinear);
    grad_plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    grad_plot_->yAxis->setNumberFormat(QStringLiteral("gbd"));
    grad_plot_->yAxis->setNumberPrecision(6);
  }
  grad_plot_->resetView();
}

// ---------------------------------------------------------------------------------------------
// Settings and config files

bool MainWindow::loadPreset(const QString& name, QString* error) {
  try {
    settings_->loadPreset(name);
    setWindowTitle(tr("TrainScope – %1").arg(name));
    return true;
  } catch (const Error& e) {
    if (error) *error = tr("Unknown preset \"%1\". %2").arg(name, QString::fromUtf8(e.what()));
    return false;
  }
}

bool MainWindow::openConfigFile(const QString& path, QString* error) {
  try {
    nlohmann::json full = defaultConfigJson();
    mergeConfigJson(full, readConfigFile(path.toStdString()));
    const TrainConfig config = configFromJson(full);  // validates; throws naming the key
    QString range;
    const QString key = settings_->keyOutsideWidgets(config, &range);
    if (!key.isEmpty()) {
      if (error) {
        *error = tr("The config file \"%1\" was not loaded: the setting \"%2\" is outside what "
                    "the dashboard can set (%3). Use trainscope-cli for such values.")
                     .arg(path, key, range) +
                 QLatin1Char('\n') + tr("The previous settings are kept.");
      }
      return false;
    }
    settings_->setConfig(config, tr("config file %1").arg(QFileInfo(path).fileName()));
    setWindowTitle(tr("TrainScope – %1").arg(QFileInfo(path).fileName()));
    return true;
  } catch (const Error& e) {
    if (error) {
      const QString subject = QString::fromStdString(e.subject());
      *error = (e.code() == ErrorCode::Config && !subject.isEmpty() && subject != path)
                   ? tr("The config file \"%1\" was not loaded: the setting \"%2\" is invalid.")
                         .arg(path, subject)
                   : tr("The config file \"%1\" was not loaded.").arg(path);
      *error += QLatin1Char('\n') + QString::fromUtf8(e.what()) + QLatin1Char('\n') +
                tr("The previous settings are kept.");
    }
    return false;
  } catch (const std::exception& e) {
    if (error) {
      *error = tr("The config file \"%1\" was not loaded.").arg(path) + QLatin1Char('\n') +
               QString::fromUtf8(e.what()) + QLatin1Char('\n') +
               tr("The previous settings are kept.");
    }
    return false;
  }
}

bool MainWindow::saveConfigFile(const QString& path, QString* error) {
  try {
    trainscope::saveConfigFile(path.toStdString(), currentConfig());
    return true;
  } catch (const std::exception& e) {
    if (error) {
      *error = tr("Could not save the config to \"%1\".").arg(path) + QLatin1Char('\n') +
               QString::fromUtf8(e.what());
    }
    return false;
  }
}

TrainConfig MainWindow::currentConfig() const { return settings_->config(); }

void MainWindow::onOpenConfig() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open config"), QString(),
                                                    tr("Config files (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!openConfigFile(path, &error)) {
    QMessageBox::warning(this, tr("Cannot open config"), error);
  } else {
    statusBar()->showMessage(tr("Loaded %1").arg(path), 5000);
  }
}

void MainWindow::onSaveConfig() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save config"),
      QStringLiteral("%1.json").arg(QString::fromStdString(currentConfig().name)),
      tr("Config files (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  QString error;
  if (!saveConfigFile(path, &error)) {
    QMessageBox::warning(this, tr("Cannot save config"), error);
  } else {
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  }
}

void MainWindow::onOpenRunFolder() {
  if (run_dir_.isEmpty()) return;
  QDesktopServices::openUrl(QUrl::fromLocalFile(run_dir_));
}

void MainWindow::onChooseRunsRoot() {
  const QString dir =
      QFileDialog::getExistingDirectory(this, tr("Choose where runs are saved"), runs_root_);
  if (dir.isEmpty()) return;
  runs_root_ = dir;
  QSettings().setValue(QStringLiteral("runsRoot"), dir);
  statusBar()->showMessage(tr("New runs are saved under %1").arg(dir), 5000);
}

// ---------------------------------------------------------------------------------------------
// Run control

void MainWindow::startRun() {
  const auto state = controller_->state();
  if (state == TrainingController::State::Paused) {
    controller_->resume();
    return;
  }
  if (controller_->isActive()) return;
  beginRun(false);
}

void MainWindow::togglePause() {
  if (controller_->state() == TrainingController::State::Paused) {
    controller_->resume();
  } else {
    controller_->pause();
  }
}

void MainWindow::stepBatch() {
  if (controller_->isActive()) {
    controller_->stepBatch();
  } else {
    beginRun(true);
  }
}

void MainWindow::stepEpoch() { controller_->stepEpoch(); }

void MainWindow::stopRun() { controller_->stop(); }

bool MainWindow::beginRun(bool pausedAfterFirstStep) {
  TrainConfig config = currentConfig();
  TrainerOptions options;
  options.front_end = "gui";
  options.default_non_finite = "pause";
  options.reserved_cores = kGuiReservedCores;
  options.command_line = QCoreApplication::arguments().join(QLatin1Char(' ')).toStdString();
  try {
    validate(config);  // before creating a folder; throws naming the key
    options.run_dir = createUniqueRunDir(runs_root_.toStdString(), config.name);
  } catch (const Error& e) {
    onRunFailed(RunFailure{true, e.code(), e.subject(), e.what()});
    return false;
  } catch (const std::exception& e) {
    onRunFailed(RunFailure{false, ErrorCode::Internal, {}, e.what()});
    return false;
  }
  resetRunView();
  run_dir_ = QString::fromStdString(options.run_dir.string());
  run_dir_label_->setText(run_dir_);
  run_dir_label_->setToolTip(run_dir_);
  clip_enabled_ = config.training.clip.enabled;
  clip_max_norm_ = config.training.clip.max_norm;
  total_epochs_ = config.training.epochs;
  if (clip_enabled_) {
    grad_plot_->graph(2)->addToLegend();
    grad_plot_->graph(2)->setName(
        tr("Clipping max norm (%1)").arg(EventText::number(clip_max_norm_)));
  } else {
    grad_plot_->graph(2)->removeFromLegend();
  }
  if (!controller_->start(config, options, pausedAfterFirstStep)) return false;
  // --quit-after-epochs N: let the engine pause exactly at the end of epoch N (stepEpoch), so
  // the stop that follows adds no step of epoch N+1.
  if (quit_after_epochs_ == 1 && !pausedAfterFirstStep) controller_->stepEpoch();
  flush_timer_.start();
  updateActions();
  return true;
}

void MainWindow::resetRunView() {
  for (LivePlot* plot : {loss_plot_, grad_plot_}) {
    if (!plot) continue;
    for (int i = 0; i < plot->graphCount(); ++i) plot->graph(i)->data()->clear();
    plot->resetView();
  }
  pending_step_keys_.clear();
  pending_step_loss_.clear();
  pending_grad_.clear();
  pending_grad_clipped_.clear();
  pending_epoch_keys_.clear();
  pending_train_loss_.clear();
  pending_val_loss_.clear();
  plots_dirty_ = false;
  last_step_.reset();
  total_steps_ = 0;
  progress_->setValue(0);
  time_label_->setText(tr("Elapsed %1 · ETA %2").arg(QStringLiteral("0:00"), QStringLiteral("–")));
  epoch_status_->setText(tr("Epoch –"));
  step_status_->setText(tr("Step –"));
  speed_status_->setText(tr("– samples/s"));
  metrics_status_->clear();
  seed_status_->setText(tr("Seed –"));
  if (run_dir_.isEmpty()) run_dir_label_->setText(tr("(created when a run starts)"));
  if (summary_panel_) summary_panel_->clear();
  if (device_panel_) device_panel_->clearRun();
}

void MainWindow::updateActions() {
  using S = TrainingController::State;
  const S s = controller_->state();
  const bool idle = s == S::Idle || s == S::Finished;
  start_button_->setEnabled(idle);
  pause_button_->setEnabled(s == S::Running || s == S::Paused);
  if (s == S::Paused) {
    pause_button_->setText(tr("Res&ume"));
    pause_button_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    pause_button_->setToolTip(tr("Continue training."));
  } else {
    pause_button_->setText(tr("Pa&use"));
    pause_button_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    pause_button_->setToolTip(
        tr("Pause training after the current batch; press again to "
           "resume."));
  }
  step_button_->setEnabled(idle || s == S::Running || s == S::Paused);
  step_epoch_button_->setEnabled(s == S::Running || s == S::Paused);
  stop_button_->setEnabled(s == S::Running || s == S::Paused);
  settings_->setEditable(idle);
  open_config_action_->setEnabled(idle);
  runs_root_action_->setEnabled(idle);
  const bool has_dir = !run_dir_.isEmpty();
  open_folder_button_->setEnabled(has_dir);
  open_run_folder_action_->setEnabled(has_dir);
}

void MainWindow::onStateChanged(TrainingController::State state) {
  updateActions();
  switch (state) {
    case TrainingController::State::Running:
      statusBar()->showMessage(tr("Training..."));
      break;
    case TrainingController::State::Paused:
      statusBar()->showMessage(tr("Paused"));
      break;
    case TrainingController::State::Stopping:
      statusBar()->showMessage(tr("Stopping..."));
      break;
    case TrainingController::State::Finished:
    case TrainingController::State::Idle:
      statusBar()->clearMessage();
      break;
  }
}

// ---------------------------------------------------------------------------------------------
// Records from the engine (GUI thread)

void MainWindow::onRunStarted(const RunInfo& info) {
  summary_panel_->setRunInfo(info);
  device_panel_->setRunThreads(info.num_threads, QString::fromStdString(info.device));
  total_steps_ = info.epochs * info.batches_per_epoch;
  total_epochs_ = info.epochs;
  seed_status_->setText(tr("Seed %1").arg(info.seed));
  epoch_status_->setText(tr("Epoch 0/%1").arg(info.epochs));
  if (!info.run_dir.empty()) {
    run_dir_ = QString::fromStdString(info.run_dir);
    run_dir_label_->setText(run_dir_);
  }
  addEventLine(EventText::forRunStarted(info), EventText::Severity::Info);
  updateActions();
}

void MainWindow::onStepRecorded(const StepRecord& step) {
  // Buffer only; flushPlots() draws at ~30 Hz.
  const double key = static_cast<double>(step.step);
  pending_step_keys_.append(key);
  pending_step_loss_.append(plottable(step.loss));
  pending_grad_.append(plottable(step.grad_norm));
  pending_grad_clipped_.append(plottable(step.grad_norm_clipped));
  last_step_ = step;
  plots_dirty_ = true;
}

void MainWindow::onEpochFinished(const EpochRecord& epoch) {
  pending_epoch_keys_.append(static_cast<double>(epoch.step));
  pending_train_loss_.append(plottable(epoch.train_loss));
  pending_val_loss_.append(plottable(epoch.val_loss));
  plots_dirty_ = true;
  epoch_status_->setText(tr("Epoch %1/%2").arg(epoch.epoch).arg(total_epochs_));
  const QString lr = ScientificSpinBox::formatValue(epoch.lr);
  metrics_status_->setText(
      epoch.val_accuracy
          ? tr("Validation accuracy %1 % · lr %2")
                .arg(QLocale().toString(100.0 * *epoch.val_accuracy, 'f', 2), lr)
          : tr("Validation loss %1 · lr %2").arg(QLocale().toString(epoch.val_loss, 'g', 4), lr));
  speed_status_->setText(
      tr("%1 samples/s").arg(QLocale().toString(epoch.samples_per_second, 'f', 0)));
  if (quit_after_epochs_ > 0 && controller_->isActive() &&
      controller_->state() != TrainingController::State::Stopping) {
    if (epoch.epoch + 1 == quit_after_epochs_) {
      controller_->stepEpoch();  // run to the end of epoch N, then pause
    } else if (epoch.epoch >= quit_after_epochs_) {
      // Grab the window while the run is live (plots, running-state buttons), then stop.
      if (!screenshot_path_.isEmpty() && !saveScreenshot()) quit_exit_code_ = 1;
      quitting_ = true;
      controller_->stop();
    }
  }
}

void MainWindow::onEventOccurred(const Event& event) {
  EventText::Severity severity = EventText::Severity::Info;
  const QString text = EventText::forEvent(event, &severity);
  if (!text.isEmpty()) addEventLine(text, severity);
  if (event.kind == EventKind::NonFinite) {
    statusBar()->showMessage(tr("Non-finite value at step %1 – see Events").arg(event.step));
  }
}

void MainWindow::onRunFinished(const RunSummary& summary) {
  flush_timer_.stop();
  flushPlots();
  EventText::Severity severity = EventText::Severity::Success;
  addEventLine(EventText::forSummary(summary, &severity), severity);
  if (summary.epochs_completed > 0) {
    epoch_status_->setText(tr("Epoch %1/%2").arg(summary.epochs_completed).arg(total_epochs_));
  }
  // No ETA once the run is over: show the run's whole wall time instead.
  time_label_->setText(tr("Run took %1 · ended").arg(formatDuration(summary.wall_seconds)));
  device_panel_->clearRun();
  updateActions();
  if (quit_when_run_ends_ || quitting_) finishAndQuit(0);
}

void MainWindow::onRunFailed(const RunFailure& failure) {
  flush_timer_.stop();
  flushPlots();
  const QString text = EventText::forFailure(failure);
  addEventLine(text, EventText::Severity::Error);
  statusBar()->showMessage(tr("The run could not start – see Events"), 10000);
  updateActions();
  if (quit_when_run_ends_ || quitting_) {
    // Automation: say why on stderr too, then quit with the "bad input" code.
    qWarning("%s", qPrintable(text));
    finishAndQuit(2);
  }
}

void MainWindow::addEventLine(const QString& text, EventText::Severity severity) {
  auto* item = new QListWidgetItem(QStringLiteral("%1  %2").arg(
      QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), text));
  switch (severity) {
    case EventText::Severity::Info:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxInformation));
      break;
    case EventText::Severity::Success:
      item->setIcon(style()->standardIcon(QStyle::SP_DialogApplyButton));
      break;
    case EventText::Severity::Warning:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
      item->setForeground(QColor(170, 90, 0));
      break;
    case EventText::Severity::Error:
      item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxCritical));
      item->setForeground(QColor(180, 0, 0));
      break;
  }
  events_->addItem(item);
  while (events_->count() > kMaxEventLines) delete events_->takeItem(0);
  events_->scrollToBottom();
}

void MainWindow::flushPlots() {
  if (!plots_dirty_) return;  // nothing new since the last flush (also keeps the end label)
  plots_dirty_ = false;
  updateProgress();
  // One batched add per graph (keys arrive sorted), then one queued replot per plot.
  if (!pending_step_keys_.isEmpty()) {
    loss_plot_->graph(0)->addData(pending_step_keys_, pending_step_loss_, true);
    grad_plot_->graph(0)->addData(pending_step_keys_, pending_grad_clipped_, true);
    grad_plot_->graph(1)->addData(pending_step_keys_, pending_grad_, true);
    pending_step_keys_.clear();
    pending_step_loss_.clear();
    pending_grad_.clear();
    pending_grad_clipped_.clear();
  }
  if (!pending_epoch_keys_.isEmpty()) {
    loss_plot_->graph(1)->addData(pending_epoch_keys_, pending_train_loss_, true);
    loss_plot_->graph(2)->addData(pending_epoch_keys_, pending_val_loss_, true);
    // Epoch markers help while there are few epochs; hundreds of them only hide the curve.
    const bool markers = loss_plot_->graph(1)->dataCount() <= kMaxEpochMarkers;
    for (int g : {1, 2}) {
      QCPGraph* graph = loss_plot_->graph(g);
      QCPScatterStyle style = graph->scatterStyle();
      style.setShape(markers ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssNone);
      graph->setScatterStyle(style);
    }
    pending_epoch_keys_.clear();
    pending_train_loss_.clear();
    pending_val_loss_.clear();
  }
  QCPGraph* threshold = grad_plot_->graph(2);
  const auto grad_data = grad_plot_->graph(0)->data();
  if (clip_enabled_ && !grad_data->isEmpty()) {
    const double first = grad_data->constBegin()->key;
    const double last = (grad_data->constEnd() - 1)->key;
    threshold->setData({first, std::max(last, first + 1)}, {clip_max_norm_, clip_max_norm_}, true);
  } else {
    threshold->data()->clear();
  }
  loss_plot_->refresh();
  grad_plot_->refresh();
}

void MainWindow::updateProgress() {
  if (!last_step_) return;
  const StepRecord& s = *last_step_;
  if (total_steps_ > 0) {
    progress_->setValue(static_cast<int>(1000.0 * s.step / static_cast<double>(total_steps_)));
  }
  step_status_->setText(tr("Step %1").arg(s.step));
  epoch_status_->setText(tr("Epoch %1/%2").arg(s.epoch).arg(total_epochs_));
  const double elapsed = s.elapsed_seconds;
  double eta = std::numeric_limits<double>::quiet_NaN();
  if (s.step > 0 && total_steps_ >= s.step) {
    eta = elapsed / static_cast<double>(s.step) * static_cast<double>(total_steps_ - s.step);
  }
  time_label_->setText(tr("Elapsed %1 · ETA %2").arg(formatDuration(elapsed), formatDuration(eta)));
}

QImage MainWindow::grabWindowImage() {
  flushPlots();
  loss_plot_->replot(QCustomPlot::rpImmediateRefresh);
  grad_plot_->replot(QCustomPlot::rpImmediateRefresh);
  return grab().toImage();
}

bool MainWindow::saveScreenshot() {
  screenshot_saved_ = true;
  const QImage image = grabWindowImage();
  if (image.save(screenshot_path_)) return true;
  qWarning("could not save the screenshot to %s", qPrintable(screenshot_path_));
  return false;
}

void MainWindow::finishAndQuit(int exitCode) {
  if (exitCode == 0) exitCode = quit_exit_code_;
  if (!screenshot_path_.isEmpty() && !screenshot_saved_ && !saveScreenshot())
    exitCode = exitCode == 0 ? 1 : exitCode;
  // Leave the event loop after the current slot returns.
  QTimer::singleShot(0, qApp, [exitCode] { QCoreApplication::exit(exitCode); });
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (controller_->isActive()) {
    if (confirm_close_) {
      const auto answer = QMessageBox::question(
          this, tr("Stop training?"),
          tr("A run is still in progress. Stop it and close TrainScope?\n\nThe files written so "
             "far are kept and summary.json records that the run was stopped."),
          QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
      if (answer != QMessageBox::Yes) {
        event->ignore();
        return;
      }
    }
    flush_timer_.stop();
    controller_->shutdown();
  }
  event->accept();
}

}  // namespace trainscope
