#include "gui/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSplitter>
#include <QVBoxLayout>

#include "core/config/train_config.h"
#include "gui/app/translations.h"
#include "gui/engine/run_session.h"
#include "gui/main_menu.h"
#include "gui/panels/checkpoint_panel.h"
#include "gui/panels/device_panel.h"
#include "gui/panels/system_panel.h"
#include "gui/panels/events_panel.h"
#include "gui/panels/gradient_watch_views.h"
#include "gui/panels/non_finite_panel.h"
#include "gui/panels/repro_panel.h"
#include "gui/panels/run_controls_panel.h"
#include "gui/panels/run_info_panel.h"
#include "gui/panels/run_status.h"
#include "gui/panels/settings_panel.h"
#include "gui/plots/loss_scale_plot.h"
#include "gui/plots/plot_area.h"
#include "gui/plots/training_plots.h"
#include "gui/tr.h"
#include "gui/views/folder_dialogs.h"
#include "gui/views/overfitting_views.h"
#include "gui/runs/runs_window.h"
#include "gui/teaching/lesson_panel.h"
#include "gui/teaching/presentation.h"
#include "gui/widgets/column_scroll_area.h"

namespace trainscope {
namespace {
constexpr int kFlushIntervalMs = 33;  // ~30 Hz redraw, whatever the step rate
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  initGuiResources();
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/trainscope.svg")));
  controller_ = new RunSession(this);
  device_info_ = probeDevices();
  runs_root_ = rememberedRunsRoot();

  buildUi();
  buildMenus();

  connect(controller_, &RunSession::stateChanged, this, &MainWindow::onStateChanged);
  connect(controller_->store(), &RunStore::runStarted, this, &MainWindow::onRunStarted);
  connect(controller_->store(), &RunStore::epochFinished, this, &MainWindow::onEpochFinished);
  connect(controller_->store(), &RunStore::eventOccurred, this, &MainWindow::onEventOccurred);
  connect(controller_->store(), &RunStore::runFinished, this, &MainWindow::onRunFinished);
  connect(controller_->store(), &RunStore::runFailed, this, &MainWindow::onRunFailed);
  connect(controller_, &RunSession::followStatusChanged, this, &MainWindow::onFollowStatus);
  connect(controls_, &RunControlsPanel::startClicked, this, &MainWindow::startRun);
  connect(controls_, &RunControlsPanel::pauseClicked, this, &MainWindow::togglePause);
  connect(controls_, &RunControlsPanel::stepClicked, this, &MainWindow::stepBatch);
  connect(controls_, &RunControlsPanel::stepEpochClicked, this, &MainWindow::stepEpoch);
  connect(controls_, &RunControlsPanel::stopClicked, this, &MainWindow::stopRun);
  // The classroom pace (about 25 s per run) for the presets README names; every other preset
  // and a config file of one's own run at full speed (a user's config crawled at 32
  // steps/s). Not remembered: the slider keeps what its user chose for next time.
  connect(settings_, &SettingsPanel::presetLoaded, this, [this](const QString& name) {
    setWindowTitle(Tr::tr("TrainScope – %1").arg(name));
    applyPaceFor(name);
  });
  connect(settings_, &SettingsPanel::valueRejected, this,
          [this](const QString& message) { statusBar()->showMessage(message, 10000); });
  connect(settings_, &SettingsPanel::configFileOpened, this, [this](const QString& path) {
    setWindowTitle(Tr::tr("TrainScope – %1").arg(QFileInfo(path).fileName()));
    applyPaceFor(QString());  // one's own config: full speed
    statusBar()->showMessage(Tr::tr("Loaded %1").arg(path), 5000);
  });
  connect(settings_, &SettingsPanel::configFileSaved, this, [this](const QString& path) {
    statusBar()->showMessage(Tr::tr("Saved %1").arg(path), 5000);
  });
  connect(controls_, &RunControlsPanel::paceChanged, controller_, &RunSession::setPace);
  controller_->setPace(controls_->pace());
  flush_timer_.setInterval(kFlushIntervalMs);
  connect(&flush_timer_, &QTimer::timeout, this, &MainWindow::flush);

  onStateChanged(controller_->state());
  setWindowTitle(Tr::tr("TrainScope"));
  // 1600x1000 where the screen allows it, else the screen; all stays readable at 1024x768.
  setMinimumSize(800, 600);
  QSize size(1600, 1000);
  if (const QScreen* s = screen()) size = size.boundedTo(s->availableGeometry().size());
  resize(size);
  restoreLayout();  // the last session's size, splitters and tabs (main_window_menus.cpp)
}

QString MainWindow::runDirectory() const { return controller_->store()->runDirectory(); }

RunCommands* MainWindow::commands() const { return controller_; }

MainWindow::~MainWindow() {
  // Join the training thread before any widget it reports to goes away.
  disconnect(controller_, nullptr, this, nullptr);
  controller_->shutdown();
}

void MainWindow::buildUi() {
  // Left column: settings, checkpoints, reproducibility, device and run info (scrolling).
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  left_layout->setContentsMargins(0, 0, 0, 0);
  settings_ = new SettingsPanel(device_info_, left);
  controls_ = new RunControlsPanel;
  checkpoint_ = new CheckpointPanel(
      controller_, [this] { return runs_root_; }, left);
  connect(checkpoint_, &CheckpointPanel::loaded, this,
          [this](const QString& file, const TrainConfig& c) {
            // The settings the run continues with (Source: "checkpoint last.pt").
            settings_->setCheckpointConfig(c, QFileInfo(file).fileName());
            setWindowTitle(Tr::tr("TrainScope – %1").arg(QFileInfo(file).fileName()));
          });
  device_panel_ = new DevicePanel(device_info_, controller_, left);
  info_panel_ = new RunInfoPanel(left);
  auto* repro = new ReproPanel(
      controller_, [this] { return currentConfig(); }, device_info_, left);
  // One path for every live setting: the settings' edit goes to the session, which applies it
  // to an active run (RunCommands::setLiveSetting); a refused value is said and undone.
  connect(settings_, &SettingsPanel::liveSettingEdited, this,
          [this](const QString& key, const QVariant& value) {
            QString error;
            if (!controller_->setLiveSetting(key, value, &error) && !error.isEmpty())
              settings_->refuseLiveSetting(key, error, controller_->store()->liveConfig());
          });
  for (QWidget* w : {static_cast<QWidget*>(settings_), static_cast<QWidget*>(checkpoint_),
                     static_cast<QWidget*>(repro), static_cast<QWidget*>(device_panel_),
                     static_cast<QWidget*>(info_panel_)})
    left_layout->addWidget(w);
  left_layout->addStretch(1);
  auto* left_scroll = new ColumnScrollArea;  // as wide as the settings need, in any language
  left_scroll->setWidget(left);
  // The column: the non-finite panel (when shown) and the scrolling settings, with the run
  // controls fixed under them: always in view, and the plots never move when the panel shows.
  auto* left_column = new QWidget;
  auto* column_layout = new QVBoxLayout(left_column);
  column_layout->setContentsMargins(6, 6, 6, 6);
  column_layout->addWidget(left_scroll, 1);
  column_layout->addWidget(controls_);

  // Right column: progress and run folder, the two plots.
  auto* right = new QWidget;
  auto* right_layout = new QVBoxLayout(right);
  right_layout->setContentsMargins(6, 6, 6, 0);
  progress_ = new RunProgressPanel(right);
  right_layout->addWidget(progress_);
  plot_area_ = new PlotArea(&controller_->store()->run(runs::kShown), right);
  loss_plot_ = plot_area_->lossPlot();
  loss_plot_->setRun(runs::kPrevious, &controller_->store()->run(runs::kPrevious));
  grad_plot_ = plot_area_->gradPlot();
  connect(loss_plot_, &LossPlot::clearGhostRequested, this, [this] {
    controller_->clearGhost();
    loss_plot_->sync();
  });
  addAmpViews(plot_area_, controller_->store());  // loss-scale view, AMP switch marks
  // Gradient watch: layer and diagnosis views, clip share, non-finite panel.
  auto* watch = new GradientWatchViews(controller_, plot_area_, settings_, this);
  column_layout->insertWidget(0, watch->nonFinitePanel());
  right_layout->addWidget(plot_area_, 1);
  new OverfittingViews(controller_, plot_area_, settings_, this);  // model view, accuracy, lr
  plot_area_->addView(PlotArea::Slot::Bottom, new SystemPanel(device_info_, controller_),
                      [] { return Tr::tr("System"); }, QStringLiteral("system"));

  columns_ = new QSplitter(Qt::Horizontal);
  columns_->setObjectName(QStringLiteral("columnsSplitter"));
  columns_->addWidget(left_column);
  columns_->addWidget(right);
  columns_->setStretchFactor(0, 0);
  columns_->setStretchFactor(1, 1);
  columns_->setSizes({400, 1200});
  columns_->setChildrenCollapsible(false);

  events_ = new EventsPanel;
  rows_ = new QSplitter(Qt::Vertical);
  rows_->setObjectName(QStringLiteral("rowsSplitter"));
  rows_->addWidget(columns_);
  rows_->addWidget(events_);
  rows_->setStretchFactor(0, 1);
  rows_->setStretchFactor(1, 0);
  rows_->setSizes({860, 120});
  rows_->setChildrenCollapsible(false);
  setCentralWidget(rows_);

  status_ = new RunStatusBar(this);
  setStatusBar(status_);
  presentation_ =
      new Presentation({this, left_scroll, events_, columns_, plot_area_, controls_, status_, progress_},
                       this);
  // The lesson panel above the run's progress (main_window_lessons.cpp).
  LessonHost host{this, controller_, settings_, plot_area_, left_scroll, events_, controls_, status_,
                  [this](bool paused) { return startLessonRun(paused); },
                  [this](const nlohmann::json& s, QString* e) { return startLessonSweep(s, e); }};
  lesson_panel_ = new LessonPanel(host, right);
  right_layout->insertWidget(0, lesson_panel_);
  connect(lesson_panel_, &LessonPanel::lessonChanged, this, &MainWindow::updateTitle);
  connect(lesson_panel_, &LessonPanel::actionFailed, this,
          [this](const QString& message) { statusBar()->showMessage(message, 20000); });
}

// ---- settings and config files ----

bool MainWindow::loadPreset(const QString& name, QString* error) {
  if (!settings_->loadPresetNamed(name, error)) return false;
  setWindowTitle(Tr::tr("TrainScope – %1").arg(name));
  applyPaceFor(name);
  return true;
}

void MainWindow::applyPaceFor(const QString& preset) {
  if (full_speed_) return;  // --quit-after-epochs, --screenshot, tests
  controls_->setPace(RunControlsPanel::suggestedPace(preset), /*remember=*/false);
}

bool MainWindow::openConfigFile(const QString& path, QString* error) {
  return settings_->openConfigFile(path, error);
}

bool MainWindow::saveConfigFile(const QString& path, QString* error) {
  return settings_->saveConfigFile(path, error);
}

bool MainWindow::loadCheckpoint(const QString& path, QString* error) {
  return checkpoint_->load(path, /*ask=*/false, error);
}

void MainWindow::setFullSpeed() {
  full_speed_ = true;
  controls_->setPace(0, /*remember=*/false);
}

TrainConfig MainWindow::currentConfig() const { return settings_->config(); }

// ---- run control: the controller owns the run; the window starts it with the settings ----

bool MainWindow::startRun() {
  if (controller_->state() == RunState::Paused) {
    controller_->resume();
    return true;
  }
  if (controller_->isActive()) return false;
  return controller_->start(currentConfig(), runs_root_, /*pausedAfterFirstStep=*/false);
}

void MainWindow::togglePause() {
  if (controller_->state() == RunState::Paused) {
    controller_->resume();
  } else {
    controller_->pause();
  }
}

void MainWindow::stepBatch() {
  if (controller_->isActive()) {
    controller_->stepBatch();
  } else {
    controller_->start(currentConfig(), runs_root_, /*pausedAfterFirstStep=*/true);
  }
}

void MainWindow::stepEpoch() { controller_->stepEpoch(); }

void MainWindow::stopRun() { controller_->stop(); }

void MainWindow::onStateChanged(RunState state) {
  using S = RunState;
  controls_->setState(state);
  checkpoint_->setState(state);
  const bool idle = state == S::Idle || state == S::Finished;
  settings_->setEditable(idle);
  menu_->setRunState(idle, !controller_->store()->runDirectory().isEmpty());
  status_->showState(state);
}

void MainWindow::onRunStarted(const RunInfo& info) {
  // A new run: fresh plots, panels and status; the controller has cleared the history.
  const ClipConfig& clip = controller_->store()->config().training.clip;
  grad_plot_->setClipping(clip.enabled, clip.max_norm);
  showRunMarks(info);  // the ghost's name and changes, teaching mistakes (main_window_runs.cpp)
  plot_area_->resetView();
  // The smoothed loss suits the run's length (EMA 0.95 lagged over 20-step lessons).
  plot_area_->lossView()->suggestSmoothingForRun(info.epochs * info.batches_per_epoch);
  fitLessonPace(info);
  flushed_ = ~quint64{0};
  live_changes_.clear();
  progress_->startRun(controller_->store()->runDirectory());
  status_->reset();
  status_->showRunInfo(info);
  info_panel_->setRunInfo(info);
  device_panel_->setRunThreads(info.num_threads, QString::fromStdString(info.device),
                               QString::fromStdString(describeThreadDetail(info.thread_choice)));
  events_->addLine([info] { return EventText::forRunStarted(info); }, EventText::Severity::Info);
  menu_->setRunState(false, true);
  flush_timer_.start();
}

void MainWindow::onEpochFinished(const EpochRecord& epoch) {
  status_->showEpoch(epoch, controller_->store()->totalEpochs());
}

void MainWindow::onEventOccurred(const Event& event) {
  events_->addEvent(event);
  // What the PyTorch code dialog warns about (a run cleared them: onRunStarted).
  if (event.kind == EventKind::ConfigChanged || event.kind == EventKind::RolledBack) {
    if (live_changes_.isEmpty()) live_change_step_ = event.step;
    live_changes_ << QStringLiteral("%1: %2").arg(event.step).arg(QString::fromStdString(event.message));
  }
  if (event.kind == EventKind::ConfigChanged && event.what == "optimizer.lr" && event.value)
    status_->showLearningRate(*event.value);
  if (event.kind == EventKind::NonFinite) {
    statusBar()->showMessage(Tr::tr("Non-finite value at step %1 – see Events").arg(event.step));
  }
}

void MainWindow::onRunFinished(const RunSummary& summary) {
  flush_timer_.stop();
  flush();
  EventText::Severity severity = EventText::Severity::Success;
  // The text first: it sets the severity (argument evaluation order is unspecified).
  const qint64 skipped = controller_->store()->skippedSteps();
  EventText::forSummary(summary, skipped, &severity);
  if (controller_->store()->endedUnfinished())  // killed or crashed: no summary, no time
    events_->addLine([summary] { return EventText::forUnfinished(summary); },
                     EventText::Severity::Warning);
  else
    events_->addLine(
        [summary, skipped] { return EventText::forSummary(summary, skipped, nullptr); }, severity);
  // Training time, pauses and pacing excluded (wall_seconds would count them).
  const auto& last = controller_->store()->lastStep();
  progress_->showEnded(last ? last->elapsed_seconds : summary.wall_seconds);
  status_->showRunEnded();
  device_panel_->clearRun();
}

void MainWindow::onRunFailed(const RunFailure& failure) {
  flush_timer_.stop();
  flush();
  events_->addLine([failure] { return EventText::forFailure(failure); },
                   EventText::Severity::Error);
  statusBar()->showMessage(Tr::tr("The run could not start – see Events"), 10000);
}

void MainWindow::flush() {
  // Draws what arrived since the last flush: plots copy only new points from the history.
  const quint64 stamp = controller_->store()->appendCount();
  if (stamp == flushed_) return;  // nothing new (also keeps the end-of-run texts)
  flushed_ = stamp;
  const auto& step = controller_->store()->lastStep();
  plot_area_->sync();
  if (step) {
    progress_->showProgress(step->step, controller_->store()->totalSteps(), step->elapsed_seconds,
                            controller_->pace());
    status_->showStep(*step, controller_->store()->totalEpochs());
  }
}

QImage MainWindow::grabWindowImage() {
  flush();
  // Texts changed in this event-loop turn (status fields) are laid out before the grab.
  QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
  plot_area_->replot(/*immediately=*/true);
  return grab().toImage();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (controller_->isActive() && confirm_close_) {
    // Training waits while the question is open, so the answer is about the run as it was.
    const bool was_running = controller_->state() == RunState::Running;
    if (was_running) controller_->pause();
    const auto answer = QMessageBox::question(
        this, Tr::tr("Stop training?"),
        Tr::tr("A run is still in progress. Stop it and close TrainScope?\n\nThe files written "
               "so far are kept and summary.json records that the run was stopped."),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) {
      if (was_running) controller_->resume();
      event->ignore();
      return;
    }
  }
  flush_timer_.stop();
  controller_->shutdown();
  saveLayout();
  event->accept();
}

}  // namespace trainscope
