#pragma once
/// The built-in lessons (resources/lessons/*.tslesson, one per chapter of the seeds) and
/// finding a lesson by name or file.
#include <QString>
#include <QStringList>

#include "core/train/teaching/lesson.h"

namespace trainscope {

/// The built-in lessons' names in teaching order: device, seeds, train-eval, clipping, amp,
/// checkpoint, overfitting, nan-loss, loss-not-decreasing, experiment-log, learning-rate.
QStringList builtInLessonNames();

/// The built-in lesson name closest to `name` (letter case aside, at most two edits away:
/// "Overfitting", "overfiting" -> "overfitting"), else empty.
QString nearestLessonName(const QString& name);

/// The lesson `nameOrFile`: a lesson file (absolute or relative to the working directory) when
/// one exists there, else the built-in lesson of that name. False with `error` naming the file
/// and the problem (lessonFromJson's message), or the unknown name, the built-in ones and the
/// nearest of them.
bool findLesson(const QString& nameOrFile, Lesson* lesson, QString* error);

}  // namespace trainscope
