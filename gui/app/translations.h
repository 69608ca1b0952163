#pragma once
/// Loading the UI translations embedded in trainscope_gui.
#include <QLocale>

class QCoreApplication;

namespace trainscope {

/// Makes sure the resources compiled into the static trainscope_gui library (icons) are
/// registered; safe to call more than once.
void initGuiResources();

/// Installs TrainScope's and Qt's own translations for `locale` when TrainScope has them
/// (Chinese: trainscope_zh_CN.qm from :/i18n, qtbase_zh_CN.qm from Qt's translations folder).
/// Otherwise installs the English catalogue (plural forms only). Returns true when a
/// Chinese translation was installed.
bool installTranslations(QCoreApplication& app, const QLocale& locale = QLocale::system());

}  // namespace trainscope
