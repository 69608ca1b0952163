#pragma once
// Deep comparison of checkpoint values (torch IValues) and of parameter lists for the core
// suites.
#include <ATen/core/ivalue.h>
#include <ATen/ops/equal.h>

#include <cstring>
#include <string>
#include <vector>

/// Whether two lists of tensors (a model's parameters, in state_dict order) are equal: the same
/// count and, pairwise, torch.equal (same shape, every element equal).
inline bool sameTensors(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!at::equal(a[i], b[i])) return false;
  return true;
}

/// Deep equality of two IValues; tensors bitwise (same dtype, shape and every element equal,
/// NaNs compared by bits). `path` names the first difference in `why`.
inline bool sameValue(const c10::IValue& a, const c10::IValue& b, const std::string& path,
                      std::string& why) {
  auto differ = [&](const std::string& what) {
    why = path + ": " + what;
    return false;
  };
  if (a.isTensor() || b.isTensor()) {
    if (!a.isTensor() || !b.isTensor()) return differ("tensor vs non-tensor");
    const at::Tensor x = a.toTensor().contiguous(), y = b.toTensor().contiguous();
    if (x.scalar_type() != y.scalar_type() || !x.sizes().equals(y.sizes()))
      return differ("dtype or shape");
    if (std::memcmp(x.data_ptr(), y.data_ptr(), x.nbytes()) != 0) return differ("values");
    return true;
  }
  if (a.isGenericDict()) {
    if (!b.isGenericDict()) return differ("dict vs other");
    auto da = a.toGenericDict(), db = b.toGenericDict();
    if (da.size() != db.size()) return differ("dict sizes");
    for (const auto& e : da) {
      auto it = db.find(e.key());
      const std::string key =
          e.key().isString() ? e.key().toStringRef() : std::to_string(e.key().toInt());
      if (it == db.end()) return differ("missing key " + key);
      if (!sameValue(e.value(), it->value(), path + "." + key, why)) return false;
    }
    return true;
  }
  if (a.isList()) {
    if (!b.isList() || a.toListRef().size() != b.toListRef().size()) return differ("lists");
    for (size_t i = 0; i < a.toListRef().size(); ++i)
      if (!sameValue(a.toListRef()[i], b.toListRef()[i], path + "[" + std::to_string(i) + "]", why))
        return false;
    return true;
  }
  if (a.isTuple()) {
    if (!b.isTuple()) return differ("tuple vs other");
    const auto &ea = a.toTupleRef().elements(), &eb = b.toTupleRef().elements();
    if (ea.size() != eb.size()) return differ("tuple sizes");
    for (size_t i = 0; i < ea.size(); ++i)
      if (!sameValue(ea[i], eb[i], path + "[" + std::to_string(i) + "]", why)) return false;
    return true;
  }
  if (a.isDouble() && b.isDouble()) {
    double x = a.toDouble(), y = b.toDouble();
    return std::memcmp(&x, &y, sizeof x) == 0 ? true : differ("floats");
  }
  return a == b ? true : differ("values " + a.tagKind() + " vs " + b.tagKind());
}
