// Precompiled header of the dashboard's library and its test suites: the Qt headers
// most GUI files include, nothing more. Measured with GCC 12 on a GUI file (device_panel.cpp):
// 4.8 s of CPU without a precompiled header, 2.2 s with this one, 10.5 s with the Qt Widgets
// umbrella, QCustomPlot and nlohmann_json in it (GCC redoes a header's deferred instantiations
// in every file that loads it: QCustomPlot alone added 7 s to an empty file). So no
// qcustomplot.h, no nlohmann_json, no umbrella here: the files that need them include them.
#pragma once
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QObject>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <QVBoxLayout>
#include <QWidget>

#include <memory>
#include <string>
#include <vector>
