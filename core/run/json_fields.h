#pragma once
/// One declaration per field of the run directory's JSON files (run.json, summary.json): the
/// key, the member, whether a reader needs it and when it is written. The writer and the reader
/// walk the same table, the way the config key table drives config.json. Torch-free.
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// A JSON number, or the strings "nan" / "inf" / "-inf" for non-finite values.
nlohmann::json jsonNumber(double value);
/// A JSON number or one of the strings "nan" / "inf" / "-inf" (jsonNumber's form); null: none.
/// Any other string throws nlohmann::json::type_error.
std::optional<double> jsonDouble(const nlohmann::json& j);

/// A member's value as JSON: doubles by jsonNumber, an optional double without a value null,
/// anything else as nlohmann_json converts it.
template <class T>
nlohmann::json fieldToJson(const T& value) {
  return value;
}
inline nlohmann::json fieldToJson(double value) { return jsonNumber(value); }
inline nlohmann::json fieldToJson(const std::optional<double>& value) {
  return value ? jsonNumber(*value) : nlohmann::json(nullptr);
}

/// Reads `j` into `out`: null keeps `out` as it is (an optional double becomes empty); a double
/// reads jsonDouble's forms; a value of the wrong type throws nlohmann::json::exception.
template <class T>
void fieldFromJson(const nlohmann::json& j, T& out) {
  if (!j.is_null()) out = j.get<T>();
}
inline void fieldFromJson(const nlohmann::json& j, double& out) {
  if (auto v = jsonDouble(j)) out = *v;
}
inline void fieldFromJson(const nlohmann::json& j, std::optional<double>& out) {
  out = jsonDouble(j);
}

/// One field of a JSON object made from a struct S.
template <class S>
struct JsonField {
  std::string key;
  /// The object the field sits in ("" the top level; run.json's "resumed_from", ...).
  std::string group;
  /// Puts the field's JSON value in `value`; false leaves the field out of the file.
  std::function<bool(const S&, nlohmann::json& value)> write;
  /// Reads the field's value (present in the file).
  std::function<void(const nlohmann::json& value, S&)> read;
  /// A reader refuses an object without it (nlohmann::json::out_of_range).
  bool required = false;
};

/// S itself, not deduced from an argument (C++20's std::type_identity).
template <class S>
struct NotDeduced {
  using type = S;
};

/// The field `key` holding `member`, written always, or only when `when(s)` holds.
template <class S, class T>
JsonField<S> jsonField(const char* key, T S::*member,
                       std::function<bool(const typename NotDeduced<S>::type&)> when = {}) {
  JsonField<S> f;
  f.key = key;
  f.write = [member, when](const S& s, nlohmann::json& value) {
    if (when && !when(s)) return false;
    value = fieldToJson(s.*member);
    return true;
  };
  f.read = [member](const nlohmann::json& value, S& s) { fieldFromJson(value, s.*member); };
  return f;
}

/// `field` in the object `group` (written when `when` holds for the whole group).
template <class S>
JsonField<S> inGroup(const char* group, JsonField<S> field) {
  field.group = group;
  return field;
}

/// Reads a field a reader needs: null and values of the wrong type throw
/// nlohmann::json::type_error (a double reads jsonDouble's forms, null as 0).
template <class T>
void requiredFieldFromJson(const nlohmann::json& j, T& out) {
  out = j.get<T>();
}
inline void requiredFieldFromJson(const nlohmann::json& j, double& out) {
  out = jsonDouble(j).value_or(0);
}

/// The field `key` holding `member`, always written, refused by a reader when absent or null.
template <class S, class T>
JsonField<S> requiredField(const char* key, T S::*member) {
  JsonField<S> f = jsonField(key, member);
  f.required = true;
  f.read = [member](const nlohmann::json& value, S& s) { requiredFieldFromJson(value, s.*member); };
  return f;
}

/// Writes every field of `fields` that `s` has into `object` (groups as nested objects).
template <class S>
void writeJsonFields(const std::vector<JsonField<S>>& fields, const S& s, nlohmann::json& object) {
  for (const JsonField<S>& f : fields) {
    nlohmann::json value;
    if (!f.write(s, value)) continue;
    (f.group.empty() ? object : object[f.group])[f.key] = std::move(value);
  }
}

/// Reads every field of `fields` present in `object` into `s`; fields the object lacks keep
/// their values (a required one throws nlohmann::json::out_of_range); `object` not an object:
/// nothing is read.
template <class S>
void readJsonFields(const std::vector<JsonField<S>>& fields, const nlohmann::json& object, S& s) {
  if (!object.is_object()) return;
  for (const JsonField<S>& f : fields) {
    const nlohmann::json* in = &object;
    if (!f.group.empty()) {
      auto g = object.find(f.group);
      if (g == object.end() || !g->is_object()) continue;
      in = &*g;
    }
    auto v = in->find(f.key);
    if (v == in->end()) {
      if (f.required) (void)in->at(f.key);  // throws out_of_range naming the key
      continue;
    }
    f.read(*v, s);
  }
}

/// A member that is an object of its own, by that struct's field table.
template <class S, class T>
JsonField<S> jsonObjectField(const char* key, T S::*member,
                             const std::vector<JsonField<T>>& (*fields)()) {
  JsonField<S> f;
  f.key = key;
  f.write = [member, fields](const S& s, nlohmann::json& value) {
    value = nlohmann::json::object();
    writeJsonFields(fields(), s.*member, value);
    return true;
  };
  f.read = [member, fields](const nlohmann::json& value, S& s) {
    readJsonFields(fields(), value, s.*member);
  };
  return f;
}

}  // namespace trainscope
