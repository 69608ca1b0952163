// The Embedding tab's t-SNE (issue 49 §2) as a user meets it: computed on a worker thread, equal
// to what core's tsne() gives from the same start, started again for a new epoch, cancelled.
#include <QComboBox>
#include <QtTest>
#include <cmath>

#include "core/run/records.h"
#include "core/train/probes/tsne.h"
#include "gui/views/embedding_view.h"
#include "test_main.h"

// Its own namespace: gui_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_embedding_gui_suite {

using namespace trainscope;

class TstEmbeddingGui : public QObject {
  Q_OBJECT
 private slots:
  void tsneRunsOnAWorkerAndCancels();
};

/// Issue 49 §2: t-SNE in the Embedding tab runs on a worker thread and gives exactly what
/// core's tsne() gives on the same points from sklearn's init="pca" start (the window stays
/// responsive meanwhile); a new epoch's embedding while t-SNE is chosen starts it again, and
/// Cancel stops it and goes back to PCA.
void TstEmbeddingGui::tsneRunsOnAWorkerAndCancels() {
  EmbeddingRecord e;
  e.epoch = 3;
  e.features = 8;
  e.reduced_dims = 4;
  const int n = 300;
  for (int i = 0; i < n; ++i) {
    const int c = i % 3;
    e.label.push_back(c);
    e.position.push_back(i);
    e.sample.push_back(1000 + i);
    for (int k = 0; k < 4; ++k)
      e.reduced.push_back(static_cast<float>((k == c ? 6.0 : 0.0) + std::sin(1.7 * i + k)));
    e.x.push_back(e.reduced[static_cast<std::size_t>(i * 4)]);
    e.y.push_back(e.reduced[static_cast<std::size_t>(i * 4 + 1)]);
  }
  e.explained_variance_ratio = {0.5, 0.3};
  EmbeddingView view;
  view.resize(600, 400);
  view.show();
  view.setEmbedding(e);
  QCOMPARE(view.shownX().size(), std::size_t{n});  // PCA: every point
  view.setTsne(true);
  QVERIFY(view.tsneRunning());
  QTRY_VERIFY_WITH_TIMEOUT(!view.tsneRunning(), 60000);
  QCOMPARE(view.tsneEpoch(), int64_t{3});
  const TsneResult want = tsne(e.reduced, n, 4, tsnePcaInit(e.reduced, n, 4), TsneOptions{});
  QCOMPARE(view.shownX().size(), std::size_t{n});
  for (int i = 0; i < n; ++i) {
    QCOMPARE(view.shownIndex()[static_cast<std::size_t>(i)], static_cast<std::size_t>(i));
    QCOMPARE(view.shownX()[static_cast<std::size_t>(i)], static_cast<float>(want.y[static_cast<std::size_t>(2 * i)]));
    QCOMPARE(view.shownY()[static_cast<std::size_t>(i)], static_cast<float>(want.y[static_cast<std::size_t>(2 * i + 1)]));
  }
  QVERIFY2(view.caption().contains(QStringLiteral("t-SNE of 300 validation samples")), qPrintable(view.caption()));
  if (const QString shots = qEnvironmentVariable("TRAINSCOPE_SHOTS"); !shots.isEmpty())
    view.grab().save(shots + QStringLiteral("/embedding-tsne.png"));
  // A new epoch: computed again; Cancel stops it and shows PCA.
  e.epoch = 4;
  view.setEmbedding(e);
  QVERIFY(view.tsneRunning());
  view.cancelTsne();
  QTRY_VERIFY_WITH_TIMEOUT(!view.tsneRunning(), 10000);
  QCOMPARE(view.tsneEpoch(), int64_t{3});  // the cancelled one left nothing
  auto* projection = view.findChild<QComboBox*>(QStringLiteral("embeddingProjection"));
  QCOMPARE(projection->currentIndex(), 0);
  QCOMPARE(view.shownX(), e.x);
}

TRAINSCOPE_GUI_TEST_MAIN(TstEmbeddingGui)
}  // namespace tst_embedding_gui_suite
#include "tst_embedding_gui.moc"
