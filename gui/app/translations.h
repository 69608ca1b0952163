#pragma once
/// The interface language: TrainScope's and Qt's own translations, switchable at runtime.
#include <QLocale>
#include <QString>

class QCoreApplication;

namespace trainscope {

/// Makes sure the resources compiled into the static trainscope_gui library (icons) are
/// registered; safe to call more than once.
void initGuiResources();

/// Installs the translations for `locale`, replacing those installed before: TrainScope's
/// (zh_CN from :/i18n) and Qt's own (qtbase_zh_CN: standard buttons, file dialogs) for Chinese;
/// the English catalogue (plural forms only) otherwise. Qt then sends every widget a
/// LanguageChange event. Returns true when a Chinese translation was installed.
bool installTranslations(QCoreApplication& app, const QLocale& locale = QLocale::system());

/// The language code TrainScope uses for `locale`: "zh_CN" for Chinese, else "en".
QString languageCode(const QLocale& locale);

/// The language to start in: `commandLine` (--lang) when given, else the one remembered in
/// QSettings ("language"), else the system locale's. Returns "en" or "zh_CN".
QString startupLanguage(const QString& commandLine);

/// Switches the interface to `code` ("en" or "zh_CN") at once and remembers the choice.
void switchLanguage(const QString& code);

}  // namespace trainscope
