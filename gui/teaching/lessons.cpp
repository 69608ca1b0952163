#include "gui/teaching/lessons.h"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <vector>

#include "core/errors.h"
#include "core/io/json_parse.h"
#include "gui/tr.h"

namespace trainscope {

QStringList builtInLessonNames() {
  return {QStringLiteral("device"),       QStringLiteral("seeds"),
          QStringLiteral("train-eval"),   QStringLiteral("clipping"),
          QStringLiteral("amp"),          QStringLiteral("checkpoint"),
          QStringLiteral("overfitting"),  QStringLiteral("nan-loss"),
          QStringLiteral("loss-not-decreasing"), QStringLiteral("experiment-log"),
          QStringLiteral("learning-rate"), QStringLiteral("what-it-learned")};
}

namespace {

/// Levenshtein distance of two short names.
int distance(const QString& a, const QString& b) {
  std::vector<int> row(static_cast<size_t>(b.size()) + 1);
  for (int j = 0; j <= b.size(); ++j) row[static_cast<size_t>(j)] = j;
  for (int i = 1; i <= a.size(); ++i) {
    int diag = row[0];
    row[0] = i;
    for (int j = 1; j <= b.size(); ++j) {
      const int up = row[static_cast<size_t>(j)];
      row[static_cast<size_t>(j)] = std::min({up + 1, row[static_cast<size_t>(j - 1)] + 1,
                                              diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row.back();
}

}  // namespace

QString nearestLessonName(const QString& name) {
  QString best;
  int best_d = 3;  // at most two edits away, letter case aside
  for (const QString& n : builtInLessonNames()) {
    const int d = distance(name.toLower(), n);
    if (d < best_d) {
      best_d = d;
      best = n;
    }
  }
  return best;
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
      if (error) {
        *error = Tr::tr("no lesson file and no built-in lesson is called \"%1\" (built-in: %2)")
                     .arg(nameOrFile, builtInLessonNames().join(QStringLiteral(", ")));
        const QString near = nearestLessonName(nameOrFile);
        if (!near.isEmpty()) *error += Tr::tr("; did you mean %1?").arg(near);
      }
      return false;
    }
    const QString resource = QStringLiteral(":/lessons/%1.tslesson").arg(nameOrFile);
    QFile f(resource);
    if (!f.open(QIODevice::ReadOnly)) {
      if (error) *error = Tr::tr("The built-in lesson %1 is missing.").arg(resource);
      return false;
    }
    *lesson = lessonFromJson(parseJson(f.readAll().toStdString()),
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
