#pragma once
/// ValueDict: the torch-free state_dict of a scheduler or monitor (numbers and lists of numbers
/// by name). train_state_io writes it into the checkpoint as a dict of Python floats and lists
/// (`scheduler_state_dict`, `early_stopping_state_dict`, ...).
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace trainscope {

/// Named numbers and lists of numbers, like a Python state_dict of plain values.
struct ValueDict {
  std::map<std::string, double> numbers;
  std::map<std::string, std::vector<double>> lists;
  std::map<std::string, std::string> strings;

  /// numbers[key]; throws std::out_of_range("missing 'key'") when absent.
  double number(const std::string& key) const {
    auto it = numbers.find(key);
    if (it == numbers.end()) throw std::out_of_range("missing '" + key + "'");
    return it->second;
  }
  /// lists[key]; throws std::out_of_range("missing 'key'") when absent.
  const std::vector<double>& list(const std::string& key) const {
    auto it = lists.find(key);
    if (it == lists.end()) throw std::out_of_range("missing '" + key + "'");
    return it->second;
  }
  /// strings[key]; throws std::out_of_range("missing 'key'") when absent.
  const std::string& string(const std::string& key) const {
    auto it = strings.find(key);
    if (it == strings.end()) throw std::out_of_range("missing '" + key + "'");
    return it->second;
  }
  bool operator==(const ValueDict& o) const {
    return numbers == o.numbers && lists == o.lists && strings == o.strings;
  }
};

}  // namespace trainscope
