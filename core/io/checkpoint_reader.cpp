#include "core/io/checkpoint_reader.h"

#include "core/errors.h"
#include "core/io/checkpoint_file.h"

namespace trainscope {

void CheckpointReader::bad(const std::string& problem) const { badCheckpoint(file, problem); }

const c10::IValue& CheckpointReader::at(const c10::impl::GenericDict& d, const std::string& key,
                                        const std::string& where) const {
  return requireKey(d, key, file, where);
}

c10::impl::GenericDict CheckpointReader::dict(const c10::impl::GenericDict& d,
                                              const std::string& key,
                                              const std::string& where) const {
  const c10::IValue& v = at(d, key, where);
  if (!v.isGenericDict()) bad("'" + where + key + "' is not a dict");
  return v.toGenericDict();
}

int64_t CheckpointReader::integer(const c10::impl::GenericDict& d, const std::string& key,
                                  const std::string& where) const {
  const c10::IValue& v = at(d, key, where);
  if (!v.isInt()) bad("'" + where + key + "' is not an integer");
  return v.toInt();
}

double CheckpointReader::number(const c10::impl::GenericDict& d, const std::string& key,
                                const std::string& where) const {
  const c10::IValue& v = at(d, key, where);
  if (v.isDouble()) return v.toDouble();
  if (v.isInt()) return static_cast<double>(v.toInt());
  bad("'" + where + key + "' is not a number");
}

bool CheckpointReader::boolean(const c10::impl::GenericDict& d, const std::string& key,
                               const std::string& where) const {
  const c10::IValue& v = at(d, key, where);
  if (!v.isBool()) bad("'" + where + key + "' is not true/false");
  return v.toBool();
}

at::Tensor CheckpointReader::tensor(const c10::impl::GenericDict& d, const std::string& key,
                                    const std::string& where) const {
  const c10::IValue& v = at(d, key, where);
  if (!v.isTensor()) bad("'" + where + key + "' is not a tensor");
  return v.toTensor();
}

at::Tensor CheckpointReader::tensorLike(const c10::impl::GenericDict& d, const std::string& key,
                                        const std::string& where, const at::Tensor& like) const {
  at::Tensor t = tensor(d, key, where);
  if (!t.sizes().equals(like.sizes()) || t.scalar_type() != like.scalar_type())
    bad("'" + where + key + "' is " + shapeText(t) + " " + dtypeName(t.scalar_type()) +
        ", the parameter " + shapeText(like) + " " + dtypeName(like.scalar_type()));
  return t.clone().to(like.device());
}

}  // namespace trainscope
