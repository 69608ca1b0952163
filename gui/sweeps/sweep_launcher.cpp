#include "gui/sweeps/sweep_launcher.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/sweep/sweep_file.h"
#include "gui/tr.h"

namespace trainscope {

QString findTrainscopeCli() {
  const QString given = qEnvironmentVariable("TRAINSCOPE_CLI");
  if (!given.isEmpty() && QFileInfo(given).isExecutable()) return QFileInfo(given).absoluteFilePath();
  const QString here = QCoreApplication::applicationDirPath();
  for (const QString& candidate : {here + QStringLiteral("/trainscope-cli"),
                                   here + QStringLiteral("/../cli/trainscope-cli")}) {
    const QFileInfo f(candidate);
    if (f.isFile() && f.isExecutable()) return f.canonicalFilePath();
  }
  return QStandardPaths::findExecutable(QStringLiteral("trainscope-cli"));
}

QString startSweepProcess(const SweepLaunch& launch, const QString& root, QString* error) {
  auto failed = [&](const QString& why) {
    if (error) *error = why;
    return QString();
  };
  const QString cli = findTrainscopeCli();
  if (cli.isEmpty())
    return failed(Tr::tr("trainscope-cli was not found beside the dashboard or on PATH: a sweep "
                         "runs its trials with it."));
  if (!QDir().mkpath(root))
    return failed(Tr::tr("Cannot create the runs folder %1.").arg(QDir::toNativeSeparators(root)));
  QString name = QString::fromStdString(launch.sweep.value("name", std::string("sweep")));
  const QDir dir(root);
  for (int k = 2; dir.exists(name) || dir.exists(name + QStringLiteral(".sweep.json")); ++k)
    name = QString::fromStdString(launch.sweep.value("name", std::string("sweep"))) +
           QStringLiteral("-%1").arg(k);
  const QString sweep_file = dir.absoluteFilePath(name + QStringLiteral(".sweep.json"));
  const QString config_file = dir.absoluteFilePath(name + QStringLiteral(".config.json"));
  const QString out = dir.absoluteFilePath(name);
  nlohmann::json sweep = launch.sweep;
  sweep["name"] = name.toStdString();
  sweep["base"] = {{"config", QFileInfo(config_file).fileName().toStdString()}};
  try {
    writeFileAtomic(config_file.toStdString(), launch.config.dump(2) + "\n");
    parseSweep(sweep, sweep_file.toStdString());  // Error(Config, key): before anything runs
    writeFileAtomic(sweep_file.toStdString(), sweep.dump(2) + "\n");
  } catch (const std::exception& e) {
    QFile::remove(config_file);  // ours, just written
    return failed(QString::fromUtf8(e.what()));
  }
  QProcess process;
  process.setProgram(cli);
  process.setArguments({QStringLiteral("sweep"), sweep_file, QStringLiteral("--out"), out});
  process.setWorkingDirectory(root);
  process.setStandardOutputFile(dir.absoluteFilePath(name + QStringLiteral(".sweep.log")),
                                QIODevice::Append);
  process.setStandardErrorFile(dir.absoluteFilePath(name + QStringLiteral(".sweep.log")),
                               QIODevice::Append);
  process.setStandardInputFile(QProcess::nullDevice());
  if (!process.startDetached())
    return failed(Tr::tr("Could not start %1: %2").arg(cli, process.errorString()));
  return out;
}

}  // namespace trainscope
