#include "gui/app/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QPointer>
#include <QSettings>
#include <QTranslator>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initTrainscopeQrc() { Q_INIT_RESOURCE(trainscope); }

namespace trainscope {

namespace {
// The translators installed now (owned by the application object).
QPointer<QTranslator> g_own;
QPointer<QTranslator> g_qt;

void removeInstalled() {
  for (QPointer<QTranslator>* t : {&g_own, &g_qt}) {
    if (*t) {
      QCoreApplication::removeTranslator(*t);
      delete t->data();
    }
  }
}
}  // namespace

void initGuiResources() { initTrainscopeQrc(); }

QString languageCode(const QLocale& locale) {
  return locale.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

bool installTranslations(QCoreApplication& app, const QLocale& locale) {
  initGuiResources();
  removeInstalled();
  if (languageCode(locale) != QLatin1String("zh_CN")) {
    // English is the source language; the English catalogue only supplies plural forms.
    auto* en = new QTranslator(&app);
    if (en->load(QStringLiteral(":/i18n/trainscope_en.qm"))) {
      QCoreApplication::installTranslator(en);
      g_own = en;
    } else {
      delete en;
    }
    return false;
  }
  auto* own = new QTranslator(&app);
  if (!own->load(QStringLiteral(":/i18n/trainscope_zh_CN.qm"))) {
    delete own;
    return false;
  }
  QCoreApplication::installTranslator(own);
  g_own = own;
  // Qt's own strings (standard buttons of message boxes, file dialogs, ...).
  auto* qt = new QTranslator(&app);
  if (qt->load(QStringLiteral("qtbase_zh_CN"),
               QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    QCoreApplication::installTranslator(qt);
    g_qt = qt;
  } else {
    delete qt;
  }
  return true;
}

QString startupLanguage(const QString& commandLine) {
  if (!commandLine.isEmpty()) return commandLine;
  const QString remembered = QSettings().value(QStringLiteral("language")).toString();
  if (remembered == QLatin1String("en") || remembered == QLatin1String("zh_CN")) return remembered;
  return languageCode(QLocale::system());
}

void switchLanguage(const QString& code) {
  QSettings().setValue(QStringLiteral("language"), code);
  QLocale::setDefault(QLocale(code));
  if (QCoreApplication* app = QCoreApplication::instance())
    installTranslations(*app, QLocale(code));
}

}  // namespace trainscope
