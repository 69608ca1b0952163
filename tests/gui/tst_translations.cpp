// Every user-visible string of gui/ has a Chinese translation: runs lupdate over the GUI
// sources into a fresh .ts and compares it with translations/trainscope_zh_CN.ts.
#include <QDirIterator>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_translations_suite {

namespace {

struct Message {
  QString translation;  // joined numerus forms for plural messages
  bool unfinished = false;
  bool empty = true;
};

/// (context, source) -> translation, read with QXmlStreamReader.
QMap<QPair<QString, QString>, Message> readTs(const QString& path, QString* error) {
  QMap<QPair<QString, QString>, Message> out;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    *error = QStringLiteral("cannot open ") + path;
    return out;
  }
  QXmlStreamReader xml(&f);
  QString context, source;
  Message msg;
  bool numerus = false;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement()) {
      const auto name = xml.name();
      if (name == QLatin1String("name")) {
        context = xml.readElementText();
      } else if (name == QLatin1String("message")) {
        source.clear();
        msg = Message{};
        numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
      } else if (name == QLatin1String("source")) {
        source = xml.readElementText();
      } else if (name == QLatin1String("translation")) {
        msg.unfinished =
            xml.attributes().value(QLatin1String("type")) == QLatin1String("unfinished");
        if (!numerus) {
          msg.translation = xml.readElementText();
          msg.empty = msg.translation.trimmed().isEmpty();
        } else {
          msg.empty = true;
        }
      } else if (name == QLatin1String("numerusform")) {
        const QString form = xml.readElementText();
        msg.translation += form;
        msg.empty = form.trimmed().isEmpty();  // every form must be filled
        if (msg.empty) msg.translation += QStringLiteral("<empty form>");
      }
    } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
      if (numerus && msg.translation.contains(QStringLiteral("<empty form>"))) msg.empty = true;
      out.insert({context, source}, msg);
    }
  }
  if (xml.hasError()) *error = path + QStringLiteral(": ") + xml.errorString();
  return out;
}

}  // namespace

class TstTranslations : public QObject {
  Q_OBJECT
 private slots:
  void everyGuiStringHasChinese();
  void everyStringUsesTheSharedContext();
  void oneWordForStepAndEpoch();
};

void TstTranslations::everyGuiStringHasChinese() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const QString fresh = tmp.filePath(QStringLiteral("fresh_zh_CN.ts"));
  QProcess lupdate;
  lupdate.setProcessChannelMode(QProcess::MergedChannels);
  lupdate.start(
      QStringLiteral(TRAINSCOPE_LUPDATE),
      {QStringLiteral(TRAINSCOPE_GUI_SOURCE_DIR),
       // Include path as the build gives it, so contexts get their namespaces.
       QStringLiteral("-I"), QStringLiteral(TRAINSCOPE_SOURCE_ROOT), QStringLiteral("-ts"), fresh,
       QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none"),
       QStringLiteral("-target-language"), QStringLiteral("zh_CN")});
  QVERIFY2(lupdate.waitForFinished(120000), "lupdate did not finish");
  QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
           lupdate.readAll().constData());

  QString error;
  const auto sources = readTs(fresh, &error);
  QVERIFY2(error.isEmpty(), qPrintable(error));
  QVERIFY2(sources.size() > 50, "lupdate found suspiciously few strings");
  const auto committed = readTs(QStringLiteral(TRAINSCOPE_ZH_CN_TS), &error);
  QVERIFY2(error.isEmpty(), qPrintable(error));

  QStringList missing;
  for (auto it = sources.cbegin(); it != sources.cend(); ++it) {
    const auto found = committed.constFind(it.key());
    const QString where =
        it.key().first + QStringLiteral(": \"") + it.key().second + QLatin1Char('"');
    if (found == committed.cend()) {
      missing << where + QStringLiteral(" (not in trainscope_zh_CN.ts: run update_translations)");
    } else if (found->empty) {
      missing << where + QStringLiteral(" (no Chinese translation)");
    } else if (found->unfinished) {
      missing << where + QStringLiteral(" (type=\"unfinished\")");
    }
  }
  for (auto it = committed.cbegin(); it != committed.cend(); ++it) {
    if (it->unfinished) {
      const QString where = it.key().first + QStringLiteral(": \"") + it.key().second +
                            QStringLiteral("\" (type=\"unfinished\")");
      if (!missing.contains(where)) missing << where;
    }
  }
  QVERIFY2(missing.isEmpty(),
           qPrintable(QStringLiteral("%1 string(s) lack Chinese:\n  ").arg(missing.size()) +
                      missing.join(QStringLiteral("\n  "))));
}

void TstTranslations::everyStringUsesTheSharedContext() {
  // Tr::tr everywhere (one context, gui/tr.h): a class's own tr() would give its strings a
  // context of their own, and moving code between classes would orphan their translations.
  static const QRegularExpression own_tr(QStringLiteral("(?<![A-Za-z_:])tr\\(|Q_DECLARE_TR_"));
  QStringList offenders;
  QDirIterator it(QStringLiteral(TRAINSCOPE_GUI_SOURCE_DIR),
                  {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                  QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString path = it.next();
    if (path.endsWith(QLatin1String("/tr.h"))) continue;
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    int line = 0;
    while (!f.atEnd()) {
      ++line;
      const QString text = QString::fromUtf8(f.readLine());
      if (text.trimmed().startsWith(QLatin1String("//"))) continue;
      if (own_tr.match(text).hasMatch()) offenders << QStringLiteral("%1:%2").arg(path).arg(line);
    }
  }
  QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
}

void TstTranslations::oneWordForStepAndEpoch() {
  // As a Chinese lecturer says it: 步 for a step, 轮 for an epoch and nothing else,
  // non-finite values named as 出现 NaN/Inf（非有限值）, the step buttons and the lr range test
  // in words.
  QString error;
  const auto committed = readTs(QStringLiteral(TRAINSCOPE_ZH_CN_TS), &error);
  QVERIFY2(error.isEmpty(), qPrintable(error));
  static const QRegularExpression other_words(
      QStringLiteral("迭代|周期|纪元|回合|时期|历元|轮次|单步批次|单步轮次"));
  QStringList offenders;
  for (auto it = committed.cbegin(); it != committed.cend(); ++it) {
    const QString& t = it->translation;
    if (other_words.match(t).hasMatch() ||
        (t.contains(QStringLiteral("非有限")) && !t.contains(QStringLiteral("NaN/Inf（非有限"))))
      offenders << it.key().second + QStringLiteral(" -> ") + t;
  }
  QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
  const QString context = QStringLiteral("TrainScope");
  QCOMPARE(committed.value({context, QStringLiteral("Step &batch")}).translation,
           QStringLiteral("单步（1 个批次）(&B)"));
  QCOMPARE(committed.value({context, QStringLiteral("Step &epoch")}).translation,
           QStringLiteral("跑完本轮(&E)"));
  QCOMPARE(committed.value({context, QStringLiteral("Find…")}).translation,
           QStringLiteral("学习率范围测试…"));
}

TRAINSCOPE_GUI_TEST_MAIN(TstTranslations)
}  // namespace tst_translations_suite
#include "tst_translations.moc"
