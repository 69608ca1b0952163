#include "gui/app/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initTrainscopeQrc() { Q_INIT_RESOURCE(trainscope); }

namespace trainscope {

void initGuiResources() { initTrainscopeQrc(); }

bool installTranslations(QCoreApplication& app, const QLocale& locale) {
  initGuiResources();
  if (locale.language() != QLocale::Chinese) {
    // English is the source language; the English catalogue only supplies plural forms.
    auto* en = new QTranslator(&app);
    if (en->load(QStringLiteral(":/i18n/trainscope_en.qm"))) {
      QCoreApplication::installTranslator(en);
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
  // Qt's own strings (standard buttons of message boxes, file dialogs, ...).
  auto* qt = new QTranslator(&app);
  if (qt->load(QStringLiteral("qtbase_zh_CN"),
               QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    QCoreApplication::installTranslator(qt);
  } else {
    delete qt;
  }
  return true;
}

}  // namespace trainscope
