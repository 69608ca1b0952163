#include "gui/panels/repro_job.h"

#include <algorithm>
#include <exception>

namespace trainscope {

CompareJob::CompareJob(Kind kind, CompareRequest request, QObject* parent)
    : QObject(parent), kind_(kind), steps_(request.steps) {
  const int64_t every = std::max<int64_t>(1, request.steps / 200);
  request.cancel = &cancel_;
  // Called on the job's thread: posts to this object's (the GUI) thread. Posted calls still
  // pending when the job is destroyed are dropped with it.
  request.progress = [this, every, total = request.steps](int run, int64_t step) {
    if (step % every != 0 && step != total) return;
    QMetaObject::invokeMethod(
        this, [this, run, step] { emit progressed(run, step); }, Qt::QueuedConnection);
  };
  thread_ = std::thread([this, kind, request = std::move(request)] {
    try {
      if (kind == Kind::VerifyRepro) {
        ReproReport report = verifyRepro(request);
        QMetaObject::invokeMethod(
            this,
            [this, report = std::move(report)] {
              finish();
              if (cancel_) {
                emit cancelled();
              } else {
                emit reproFinished(report);
              }
            },
            Qt::QueuedConnection);
      } else {
        AmpCompareReport report = compareAmp(request);
        QMetaObject::invokeMethod(
            this,
            [this, report = std::move(report)] {
              finish();
              if (cancel_) {
                emit cancelled();
              } else {
                emit ampFinished(report);
              }
            },
            Qt::QueuedConnection);
      }
    } catch (const std::exception& e) {
      const QString message = QString::fromUtf8(e.what());
      QMetaObject::invokeMethod(
          this,
          [this, message] {
            finish();
            emit failed(message);
          },
          Qt::QueuedConnection);
    }
  });
}

CompareJob::~CompareJob() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
}

void CompareJob::finish() {
  running_ = false;
  if (thread_.joinable()) thread_.join();  // the thread has posted its last call: it ends now
}

}  // namespace trainscope
