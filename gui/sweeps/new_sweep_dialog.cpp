#include "gui/sweeps/new_sweep_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/errors.h"
#include "core/sweep/samplers.h"
#include "core/sweep/sweep_file.h"
#include "core/system/number_format.h"
#include "gui/plots/palette.h"
#include "gui/sweeps/sweep_launcher.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

using json = nlohmann::json;
enum Column { kVary = 0, kKey = 1, kCurrent = 2, kKind = 3, kValues = 4 };

QString num(double v) { return QString::fromStdString(formatNumber(v)); }

/// The kind and the values text a key starts with in the table.
std::pair<QString, QString> prefill(const ConfigKeyInfo& info, const json& v) {
  if (info.type == "boolean") return {QStringLiteral("choices"), QStringLiteral("false, true")};
  if (!info.choices.empty()) {
    QStringList all;
    for (const auto& c : info.choices) all.append(QString::fromStdString(c));
    return {QStringLiteral("choices"), all.join(QStringLiteral(", "))};
  }
  if (info.type == "integer" && v.is_number_integer()) {
    const double x = v.get<double>();
    double lo = std::max(info.min.value_or(0.0), std::floor(x / 2));
    double hi = std::max(lo + 1, x * 2);
    if (info.max) hi = std::min(hi, *info.max);
    return {QStringLiteral("int_uniform"), num(lo) + QStringLiteral(", ") + num(hi)};
  }
  if (info.type == "number" && v.is_number()) {
    const double x = v.get<double>();
    const bool positive = info.min && (*info.min > 0 || (*info.min == 0 && info.min_exclusive));
    if (positive && x > 0 && (!info.max || *info.max > x * 10)) {
      return {QStringLiteral("log_uniform"), num(x / 10) + QStringLiteral(", ") + num(x * 10)};
    }
    double lo = info.min.value_or(x > 0 ? x / 2 : 0.0), hi = info.max.value_or(x > 0 ? x * 2 : 1.0);
    const double span = hi - lo;  // open bounds moved 1 % of the range inside
    if (info.min_exclusive) lo += span * 0.01;
    if (info.max_exclusive) hi -= span * 0.01;
    return {QStringLiteral("uniform"), num(lo) + QStringLiteral(", ") + num(hi)};
  }
  return {QStringLiteral("choices"), QString::fromStdString(v.dump())};
}

/// The values cell as JSON: comma-separated JSON values ("0.001, 0.01", "[16], [64, 64]"), or
/// with brackets around them all ("[0.001, 0.01]"), else comma-separated strings ("adam, sgd").
/// A key whose values are lists takes "[32, 32]" as one choice.
json parseValues(const QString& text, bool list_key) {
  const std::string t = text.trimmed().toStdString();
  json j = json::parse("[" + t + "]", nullptr, false);
  if (!j.is_discarded()) {
    if (j.size() == 1 && j[0].is_array() && !list_key) return j[0];  // "[a, b]"
    if (list_key && !j.empty() && !j[0].is_array()) return json::array({j});  // "32, 32"
    return j;
  }
  json out = json::array();  // each entry as JSON where it is (0.01), else as text (adam, abc)
  for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    const std::string entry = part.trimmed().toStdString();
    const json value = json::parse(entry, nullptr, false);
    out.push_back(value.is_discarded() ? json(entry) : value);
  }
  return out;
}

}  // namespace

NewSweepDialog::NewSweepDialog(const json& config, const QString& root, QWidget* parent)
    : QDialog(parent), config_(config), root_(root) {
  setObjectName(QStringLiteral("newSweepDialog"));
  setWindowTitle(Tr::tr("New sweep"));
  resize(860, 640);
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(Tr::tr(
      "A sweep trains the current settings many times, varying the keys you tick, and ranks the "
      "runs by an objective. Tick a key, choose how it varies and give its values (choices, "
      "separated by commas) or its range (low, high)."));
  intro->setWordWrap(true);
  layout->addWidget(intro);
  filter_ = new QLineEdit;
  filter_->setObjectName(QStringLiteral("sweepKeyFilterEdit"));
  filter_->setPlaceholderText(Tr::tr("Filter keys (e.g. lr, hidden, dropout)"));
  filter_->setClearButtonEnabled(true);
  layout->addWidget(filter_);
  table_ = new QTableWidget(0, 5);
  table_->setObjectName(QStringLiteral("sweepParametersTable"));
  table_->setHorizontalHeaderLabels({Tr::tr("vary"), Tr::tr("key"), Tr::tr("now"),
                                     Tr::tr("how"), Tr::tr("values or range")});
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  for (const ConfigKeyInfo& info : configKeyInfos()) {
    const bool sweepable = info.type == "number" || info.type == "integer" ||
                           info.type == "boolean" || info.type == "list of integers" ||
                           (!info.choices.empty() && info.type.rfind("string", 0) == 0);
    if (!sweepable || info.key == "name" || !configKeyApplies(info.key, config_)) continue;
    const json* v = configAt(config_, info.key);
    if (!v) continue;
    const int row = table_->rowCount();
    table_->insertRow(row);
    auto* vary = new QTableWidgetItem;
    vary->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    vary->setCheckState(Qt::Unchecked);
    table_->setItem(row, kVary, vary);
    auto* key = new QTableWidgetItem(QString::fromStdString(info.key));
    key->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    key->setToolTip(QString::fromStdString(info.help + (info.allowed.empty() ? "" : " (" + info.allowed + ")")));
    table_->setItem(row, kKey, key);
    auto* now = new QTableWidgetItem(v->is_string() ? QString::fromStdString(v->get<std::string>())
                                                    : QString::fromStdString(v->dump()));
    now->setFlags(Qt::ItemIsEnabled);
    table_->setItem(row, kCurrent, now);
    const auto [kind, values] = prefill(info, *v);
    auto* how = new QComboBox;
    for (const char* k : {"choices", "uniform", "log_uniform", "int_uniform"})
      how->addItem(QString::fromLatin1(k), QString::fromLatin1(k));
    how->setCurrentIndex(how->findData(kind));
    table_->setCellWidget(row, kKind, how);
    connect(how, &QComboBox::currentIndexChanged, this, &NewSweepDialog::updatePlan);
    table_->setItem(row, kValues, new QTableWidgetItem(values));
  }
  table_->resizeColumnsToContents();
  layout->addWidget(table_, 1);

  auto* form = new QFormLayout;
  name_ = new QLineEdit(QStringLiteral("sweep-") +
                        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
  name_->setObjectName(QStringLiteral("sweepNameEdit"));
  form->addRow(Tr::tr("Name:"), name_);
  method_ = new QComboBox;
  method_->setObjectName(QStringLiteral("sweepMethodCombo"));
  method_->addItem(Tr::tr("grid: every combination"), QStringLiteral("grid"));
  method_->addItem(Tr::tr("random: seeded draws"), QStringLiteral("random"));
  method_->addItem(Tr::tr("tpe: Optuna's TPE, learns from the trials so far"), QStringLiteral("tpe"));
  method_->setCurrentIndex(1);  // random, as a sweep file without "method"
  form->addRow(Tr::tr("Method:"), method_);
  auto* counts = new QHBoxLayout;
  max_trials_ = new QSpinBox;
  max_trials_->setObjectName(QStringLiteral("sweepMaxTrialsSpin"));
  max_trials_->setRange(1, 100000);
  max_trials_->setValue(10);
  concurrent_ = new QSpinBox;
  concurrent_->setObjectName(QStringLiteral("sweepConcurrentSpin"));
  concurrent_->setRange(1, 64);
  seeds_ = new QSpinBox;
  seeds_->setObjectName(QStringLiteral("sweepSeedsSpin"));
  seeds_->setRange(1, 100);
  counts->addWidget(new QLabel(Tr::tr("Trials (random, tpe):")));
  counts->addWidget(max_trials_);
  counts->addWidget(new QLabel(Tr::tr("At once:")));
  counts->addWidget(concurrent_);
  counts->addWidget(new QLabel(Tr::tr("Seeds each:")));
  counts->addWidget(seeds_);
  counts->addStretch(1);
  form->addRow(Tr::tr("Budget:"), counts);
  auto* objective = new QHBoxLayout;
  metric_ = new QComboBox;
  metric_->setObjectName(QStringLiteral("sweepObjectiveCombo"));
  for (const std::string& m : sweepObjectiveMetrics())
    metric_->addItem(QString::fromStdString(m), QString::fromStdString(m));
  goal_ = new QComboBox;
  goal_->setObjectName(QStringLiteral("sweepGoalCombo"));
  goal_->addItem(Tr::tr("lower is better"), QStringLiteral("minimize"));
  goal_->addItem(Tr::tr("higher is better"), QStringLiteral("maximize"));
  objective->addWidget(metric_, 1);
  objective->addWidget(goal_);
  form->addRow(Tr::tr("Objective:"), objective);
  pruner_ = new QComboBox;
  pruner_->setObjectName(QStringLiteral("sweepPrunerCombo"));
  pruner_->addItem(Tr::tr("none: every trial runs to its end"), QStringLiteral("none"));
  pruner_->addItem(Tr::tr("median: stop a trial worse than the median at the same epoch"),
                   QStringLiteral("median"));
  pruner_->addItem(Tr::tr("successive halving: keep the best third at epochs 1, 3, 9, ..."),
                   QStringLiteral("successive_halving"));
  form->addRow(Tr::tr("Early stopping of trials:"), pruner_);
  layout->addLayout(form);
  plan_ = new QLabel;
  plan_->setObjectName(QStringLiteral("sweepPlanLabel"));
  plan_->setWordWrap(true);
  layout->addWidget(plan_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
  start_ = buttons->addButton(Tr::tr("Start sweep"), QDialogButtonBox::AcceptRole);
  start_->setObjectName(QStringLiteral("startSweepButton"));
  layout->addWidget(buttons);

  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    for (int r = 0; r < table_->rowCount(); ++r)
      table_->setRowHidden(r, !text.isEmpty() && !table_->item(r, kKey)->text().contains(text, Qt::CaseInsensitive) &&
                                  table_->item(r, kVary)->checkState() != Qt::Checked);
  });
  connect(table_, &QTableWidget::itemChanged, this, &NewSweepDialog::updatePlan);
  for (QComboBox* c : {method_, metric_, goal_, pruner_})
    connect(c, &QComboBox::currentIndexChanged, this, &NewSweepDialog::updatePlan);
  connect(metric_, &QComboBox::currentIndexChanged, this, [this] {
    const QString m = metric_->currentData().toString();
    goal_->setCurrentIndex(m.contains(QStringLiteral("accuracy")) || m.contains(QStringLiteral("r2")) ? 1 : 0);
  });
  for (QSpinBox* s : {max_trials_, concurrent_, seeds_})
    connect(s, &QSpinBox::valueChanged, this, &NewSweepDialog::updatePlan);
  connect(name_, &QLineEdit::textChanged, this, &NewSweepDialog::updatePlan);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(start_, &QPushButton::clicked, this, [this] {
    QString error;
    if (start(&error).isEmpty()) {
      plan_->setText(error);
      return;
    }
    accept();
  });
  updatePlan();
}

int NewSweepDialog::rowOf(const QString& key) const {
  for (int r = 0; r < table_->rowCount(); ++r)
    if (table_->item(r, kKey)->text() == key) return r;
  return -1;
}

bool NewSweepDialog::vary(const QString& key, const QString& kind, const QString& values) {
  const int r = rowOf(key);
  if (r < 0) return false;
  auto* how = static_cast<QComboBox*>(table_->cellWidget(r, kKind));
  const int k = how->findData(kind);
  if (k < 0) return false;
  how->setCurrentIndex(k);
  table_->item(r, kValues)->setText(values);
  table_->item(r, kVary)->setCheckState(Qt::Checked);
  return true;
}

std::optional<json> NewSweepDialog::sweepJson(QString* error) const {
  json parameters = json::object();
  for (int r = 0; r < table_->rowCount(); ++r) {
    if (table_->item(r, kVary)->checkState() != Qt::Checked) continue;
    const std::string key = table_->item(r, kKey)->text().toStdString();
    const QString kind = static_cast<QComboBox*>(table_->cellWidget(r, kKind))->currentData().toString();
    const bool list_key = table_->item(r, kCurrent)->text().startsWith(QLatin1Char('['));
    parameters[key] = {{kind.toStdString(), parseValues(table_->item(r, kValues)->text(), list_key)}};
  }
  if (parameters.empty()) {
    if (error) *error = Tr::tr("Tick at least one key to vary.");
    return std::nullopt;
  }
  const QString method = method_->currentData().toString();
  json j = {{"name", name_->text().trimmed().toStdString()},
            {"parameters", parameters},
            {"method", method.toStdString()},
            {"concurrent", concurrent_->value()},
            {"objective", {{"metric", metric_->currentData().toString().toStdString()},
                           {"goal", goal_->currentData().toString().toStdString()}}},
            {"pruner", {{"kind", pruner_->currentData().toString().toStdString()}}}};
  if (method != QStringLiteral("grid")) j["max_trials"] = max_trials_->value();
  if (seeds_->value() > 1) j["seeds"] = seeds_->value();
  return j;
}

void NewSweepDialog::updatePlan() {
  max_trials_->setEnabled(method_->currentData().toString() != QStringLiteral("grid"));
  QString error;
  const auto j = sweepJson(&error);
  QString text;
  bool ok = false;
  if (j) {
    try {
      const QString file = root_ + QLatin1Char('/') + name_->text().trimmed() + QStringLiteral(".sweep.json");
      const SweepSpec spec = parseSweep(*j, file.toStdString(), &config_);
      if (spec.method == "tpe") {
        text = Tr::tr("Up to %1 trials, each asked of Optuna's TPE when a slot frees.").arg(spec.max_trials);
      } else {
        const SweepPlan plan = planTrials(spec);
        text = Tr::tr("%1 trials, %2 at a time.").arg(plan.trials.size()).arg(spec.concurrent);
        if (!plan.note.empty()) text += QLatin1Char(' ') + QString::fromStdString(plan.note);
      }
      ok = true;
    } catch (const std::exception& e) {
      text = QString::fromUtf8(e.what());
    }
  } else {
    text = error;
  }
  plan_->setText(text);
  QPalette p = plan_->palette();
  p.setColor(QPalette::WindowText, ok ? palette().color(QPalette::WindowText) : palette::kErrorText);
  plan_->setPalette(p);
  start_->setEnabled(ok);
}

QString NewSweepDialog::start(QString* error) {
  const auto j = sweepJson(error);
  if (!j) return {};
  const QString dir = startSweepProcess({*j, config_}, root_, error);
  if (!dir.isEmpty()) emit started(dir);
  return dir;
}

}  // namespace trainscope
