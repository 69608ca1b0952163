// Precompiled header of the dashboard's library and its test suites (issue 45: parsing Qt's and
// QCustomPlot's headers was 70-80% of a GUI file's compile time): Qt Widgets, QCustomPlot, the
// standard library and nlohmann_json (core/base_pch.h). No torch.
#pragma once
#include "core/base_pch.h"

#include <QtWidgets/QtWidgets>
#include <qcustomplot.h>
