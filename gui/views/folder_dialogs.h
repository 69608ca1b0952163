#pragma once
/// The window's folders: where runs are saved (remembered), and which past run to show.
#include <QString>

class QWidget;

namespace trainscope {

/// The folder new runs are created under: the one last chosen (QSettings "runsRoot"), else
/// Documents/TrainScope/runs (the home folder when there is no Documents).
QString rememberedRunsRoot();

/// Asks for the folder new runs are created under, starting at `current`, and remembers the
/// choice; empty when cancelled.
QString chooseRunsRoot(QWidget* parent, const QString& current);

/// Asks for a run folder to show (File > Show a past run...), starting at `start`; empty when
/// cancelled.
QString askPastRunFolder(QWidget* parent, const QString& start);

/// Says that the chosen folder cannot be shown as a run (`error`: the reader's English detail).
void tellPastRunRefused(QWidget* parent, const QString& error);

}  // namespace trainscope
