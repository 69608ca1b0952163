// Your own model in the dashboard: File > Use a TorchScript model... shows the file's
// import report and one batch of the current data through it; a module whose output does not fit
// the data cannot be chosen; a chosen one trains in the window and comes back to Python as
// TorchScript (<run>/model.pt, eval mode, the weights of the run's last checkpoint).
#include <QApplication>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "gui/engine/run_session.h"
#include "gui/main_window.h"
#include "gui/panels/settings_panel.h"
#include "gui/views/shapes_dialog.h"
#include "python_runner.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_own_model_gui_suite {

using namespace trainscope;

namespace {

/// Runs `script` with Debian's Python (torch 1.13) from a file (torch.jit.script reads class
/// sources); returns its stdout, or "failed: ..." with its stderr.
QString python(const QString& dir, const QString& script) {
  Q_UNUSED(dir);
  const testpython::Result py = testpython::scriptFile(script);
  if (!py.finished) return QStringLiteral("failed: ") + py.why;
  if (py.exit_code != 0) return "failed: " + QString::fromUtf8(py.err);
  return QString::fromUtf8(py.out);
}

/// What the import dialog showed when it was answered.
struct Answer {
  bool seen = false, use_enabled = false;
  QString report, error;
};

/// Answers the next modal ShapesDialog once its check has finished: clicks "Use this model" when
/// `use` and it is enabled, else Cancel.
void answerImportDialog(bool use, Answer* answer) {
  auto* timer = new QTimer(qApp);
  timer->setInterval(100);
  QObject::connect(timer, &QTimer::timeout, timer, [timer, use, answer] {
    auto* d = qobject_cast<ShapesDialog*>(QApplication::activeModalWidget());
    if (!d) return;
    auto* button = d->findChild<QPushButton*>(QStringLiteral("shapesUseButton"));
    if (!button) return;
    const bool done = button->isEnabled() || !d->error().isEmpty();
    if (!done) return;
    answer->seen = true;
    answer->use_enabled = button->isEnabled();
    answer->report = d->importReport();
    answer->error = d->error();
    if (const QByteArray shots = qgetenv("TRAINSCOPE_SHOTS"); !shots.isEmpty())
      d->grab().save(QString::fromLocal8Bit(shots) + (use ? "/torchscript-import.png"
                                                          : "/torchscript-mismatch.png"));
    if (use && button->isEnabled())
      button->click();
    else
      d->reject();
    timer->deleteLater();
  });
  timer->start();
}

}  // namespace

class TstOwnModelGui : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
  void scriptedCnnTrainsAndComesBackAsTorchScript();
};

void TstOwnModelGui::scriptedCnnTrainsAndComesBackAsTorchScript() {
  QTemporaryDir dir;
  const QString net = dir.filePath("net.pt"), five = dir.filePath("net5.pt");
  const QString made = python(dir.path(), QString(R"(import torch
from torch import nn
class Net(nn.Module):
    def __init__(self, classes: int):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Linear(4 * 14 * 14, classes)
    def forward(self, x):
        return self.classifier(self.features(x.view(-1, 1, 28, 28)).flatten(1))
torch.manual_seed(0)
torch.jit.script(Net(10)).save('%1')
torch.jit.script(Net(5)).save('%2')
)").arg(net, five));
  QVERIFY2(!made.startsWith("failed"), qPrintable(made));

  MainWindow w;
  w.setConfirmClose(false);
  w.setFullSpeed();
  w.setRunsRoot(dir.filePath("runs"));
  w.show();
  QFile cfg(dir.filePath("small.json"));
  QVERIFY(cfg.open(QIODevice::WriteOnly));
  cfg.write(R"({"preset": "fashion-mnist-cnn", "data": {"limit": 600},
               "training": {"epochs": 1, "seed": 5, "num_threads": 1}})");
  cfg.close();
  QString error;
  QVERIFY2(w.openConfigFile(cfg.fileName(), &error), qPrintable(error));
  auto* settings = w.findChild<SettingsPanel*>();
  QVERIFY(settings);

  // Five outputs for ten classes: shown with both shapes, and it cannot be chosen.
  Answer wrong;
  answerImportDialog(true, &wrong);
  QVERIFY(!settings->importTorchScript(five));
  QVERIFY(wrong.seen);
  QVERIFY(!wrong.use_enabled);
  QVERIFY2(wrong.error.contains("[64, 5]") && wrong.error.contains("[64, 10]"),
           qPrintable(wrong.error));
  QCOMPARE(settings->config().model.kind, std::string("cnn"));

  // The right one: its report, then chosen.
  Answer right;
  answerImportDialog(true, &right);
  QVERIFY(settings->importTorchScript(net));
  QVERIFY(right.use_enabled);
  QVERIFY2(right.report.contains("torch.jit.script") && right.report.contains("features.0.weight"),
           qPrintable(right.report));
  const TrainConfig chosen = settings->config();
  QCOMPARE(chosen.model.kind, std::string("torchscript"));
  QCOMPARE(QString::fromStdString(*chosen.model.torchscript.path), net);
  QCOMPARE(chosen.data.limit.value_or(0), int64_t{600});  // the data stays as it was

  QSignalSpy finished(w.controller()->store(), &RunStore::runFinished);
  QVERIFY(w.startRun());
  QVERIFY(finished.wait(180000));
  const QString run = w.runDirectory();
  QVERIFY2(QFile::exists(run + "/model.pt"), qPrintable(run));
  QVERIFY(QFile::exists(run + "/checkpoints/best-model.pt"));
  // Python: model.pt loads with torch.jit.load, in eval mode, with the weights of last.pt.
  const QString back = python(dir.path(), QString(R"(import torch
m = torch.jit.load('%1/model.pt')
sd = torch.load('%1/checkpoints/last.pt')['model_state_dict']
assert not m.training
assert list(m.state_dict().keys()) == list(sd.keys()), (list(m.state_dict().keys()), list(sd.keys()))
assert all(torch.equal(m.state_dict()[k], sd[k]) for k in sd)
print('ok', len(sd))
)").arg(run));
  QVERIFY2(back.startsWith("ok"), qPrintable(back));
}

TRAINSCOPE_GUI_TEST_MAIN(TstOwnModelGui)
}  // namespace tst_own_model_gui_suite
#include "tst_own_model_gui.moc"
