#include "gui/teaching/lessons.h"

#include <QFile>
#include <QFileInfo>

#include "core/errors.h"
#include "gui/tr.h"

namespace trainscope {

QStringList builtInLessonNames() {
  return {QStringLiteral("device"),       QStringLiteral("seeds"),
          QStringLiteral("train-eval"),   QStringLiteral("clipping"),
          QStringLiteral("amp"),          QStringLiteral("checkpoint"),
          QStringLiteral("overfitting"),  QStringLiteral("nan-loss"),
          QStringLiteral("loss-not-decreasing"), QStringLiteral("experiment-log")};
}

bool findLesson(const QString& nameOrFile, Lesson* lesson, QString* error) {
  try {
    const QFileInfo info(nameOrFile);
    if (info.exists() || nameOrFile.contains(QLatin1Char('/')) ||
        nameOrFile.endsWith(QLatin1String(".tslesson")) ||
        nameOrFile.endsWith(QLatin1String(".json"))) {
      *lesson = readLesson(nameOrFile.toStdString());  // names the file in its errors
      return true;
    }
    if (!builtInLessonNames().contains(nameOrFile)) {
      if (error)
        *error = Tr::tr("No lesson file and no built-in lesson is called \"%1\" (built-in: %2).")
                     .arg(nameOrFile, builtInLessonNames().join(QStringLiteral(", ")));
      return false;
    }
    const QString resource = QStringLiteral(":/lessons/%1.tslesson").arg(nameOrFile);
    QFile f(resource);
    if (!f.open(QIODevice::ReadOnly)) {
      if (error) *error = Tr::tr("The built-in lesson %1 is missing.").arg(resource);
      return false;
    }
    *lesson = lessonFromJson(nlohmann::json::parse(f.readAll().toStdString()),
                             resource.toStdString());
    return true;
  } catch (const Error& e) {
    if (error) *error = QString::fromUtf8(e.what());
  } catch (const nlohmann::json::exception& e) {
    if (error) *error = QStringLiteral("%1: %2").arg(nameOrFile, QString::fromUtf8(e.what()));
  }
  return false;
}

}  // namespace trainscope
