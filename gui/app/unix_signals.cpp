#include "gui/app/unix_signals.h"

#include <sys/socket.h>
#include <unistd.h>

#include <QSocketNotifier>
#include <csignal>

namespace trainscope {
namespace {

int g_fds[2] = {-1, -1};  // [0] written by the handler, [1] read by the notifier

void handler(int signal_number) {
  const unsigned char byte = static_cast<unsigned char>(signal_number);
  [[maybe_unused]] ssize_t n = ::write(g_fds[0], &byte, 1);  // async-signal-safe
}

}  // namespace

UnixSignalNotifier::UnixSignalNotifier(QObject* parent) : QObject(parent) {
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_fds) != 0) return;
  notifier_ = new QSocketNotifier(g_fds[1], QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, &UnixSignalNotifier::onReadable);
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

UnixSignalNotifier::~UnixSignalNotifier() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (g_fds[0] >= 0) ::close(g_fds[0]);
  if (g_fds[1] >= 0) ::close(g_fds[1]);
  g_fds[0] = g_fds[1] = -1;
}

void UnixSignalNotifier::onReadable() {
  notifier_->setEnabled(false);
  unsigned char byte = 0;
  if (::read(g_fds[1], &byte, 1) == 1) emit received(byte);
  notifier_->setEnabled(true);
}

}  // namespace trainscope
