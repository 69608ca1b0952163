#pragma once
/// One translation context for the whole GUI (Qt Creator's `Tr` idiom): every user-visible
/// string is `Tr::tr("...")`, so moving code between classes never orphans a Chinese
/// translation. Never use a class's own tr().
#include <QCoreApplication>

namespace trainscope {

struct Tr {
  Q_DECLARE_TR_FUNCTIONS(TrainScope)
};

}  // namespace trainscope
