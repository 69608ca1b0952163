#include "gui/panels/repro_job.h"

#include <algorithm>
#include <exception>

namespace trainscope {

CompareJob::CompareJob(Kind kind, CompareRequest request, QObject* parent)
    : QObject(parent), kind_(kind),
      steps_(request.steps),
      runs_(kind == Kind::AmpCompare ? 2 * request.rounds : 2) {
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
    // Hands a finished report to the GUI thread: `finished` unless cancel() came first.
    auto deliver = [this](auto report, auto finished) {
      QMetaObject::invokeMethod(
          this,
          [this, report = std::move(report), finished] {
            finish();
            if (cancel_) {
              emit cancelled();
            } else {
              emit(this->*finished)(report);
            }
          },
          Qt::QueuedConnection);
    };
    try {
      if (kind == Kind::VerifyRepro) {
        deliver(verifyRepro(request), &CompareJob::reproFinished);
      } else {
        deliver(compareAmp(request), &CompareJob::ampFinished);
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
