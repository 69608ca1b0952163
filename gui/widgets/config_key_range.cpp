#include "gui/widgets/config_key_range.h"

#include <algorithm>
#include <climits>
#include <vector>

namespace trainscope {

const ConfigKeyInfo& configKeyInfo(const std::string& key) {
  static const std::vector<ConfigKeyInfo> keys = configKeyInfos();
  const auto it =
      std::find_if(keys.begin(), keys.end(), [&](const ConfigKeyInfo& k) { return k.key == key; });
  Q_ASSERT_X(it != keys.end(), "configKeyInfo", key.c_str());
  return it != keys.end() ? *it : keys.front();
}

void setKeyRange(QSpinBox* box, const std::string& key, std::optional<int> special_min) {
  const ConfigKeyInfo& k = configKeyInfo(key);
  auto clamp = [](double v) { return static_cast<int>(std::clamp<double>(v, INT_MIN, INT_MAX)); };
  int lo = k.min ? clamp(*k.min) + (k.min_exclusive ? 1 : 0) : INT_MIN;
  const int hi = k.max ? clamp(*k.max) - (k.max_exclusive ? 1 : 0) : INT_MAX;
  if (special_min) lo = std::min(lo, *special_min);
  box->setRange(lo, hi);
}

void setKeyRange(QDoubleSpinBox* box, const std::string& key, double open_step, double fallback_max,
                 double open_step_max) {
  const ConfigKeyInfo& k = configKeyInfo(key);
  if (open_step_max < 0) open_step_max = open_step;
  const double lo = k.min ? *k.min + (k.min_exclusive ? open_step : 0) : -fallback_max;
  const double hi = k.max ? *k.max - (k.max_exclusive ? open_step_max : 0) : fallback_max;
  box->setRange(lo, hi);
}

void addKeyChoices(QComboBox* combo, const std::string& key) {
  for (const std::string& choice : configKeyInfo(key).choices)
    combo->addItem(QString(), QString::fromStdString(choice));
}

}  // namespace trainscope
