#pragma once
/// Internal to core (torch types): a small unpickler for the subset of Python's pickle that
/// `torch.save` (zip format, pickle protocols 2 to 5) and libtorch's torch::pickle_save emit.
/// libtorch 1.13's own unpickler (torch::pickle_load) turns collections.OrderedDict into None
/// before any resolver is asked, so a bare Python state_dict cannot be read with it.
#include <ATen/core/ivalue.h>

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>

namespace trainscope {

/// A pickle that this reader cannot decode (corrupt, truncated, or outside the subset). The
/// message names the problem and the byte offset; callers add the file name.
class PickleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A Python object that is not one of the plain values below, kept as its class name
/// ("argparse.Namespace", "torch.nn.modules.container.Sequential") so a caller can say what
/// the file holds. Held in an IValue capsule (IValue::isCapsule()).
struct PickledObject : torch::CustomClassHolder {
  explicit PickledObject(std::string type) : type_name(std::move(type)) {}
  std::string type_name;  ///< "module.qualname"
};

/// The class name of `v` when it is a PickledObject capsule, else "".
std::string pickledObjectType(const c10::IValue& v);

/// Loads the storage named by a torch persistent id ('storage', torch.<T>Storage, key,
/// location, numel): returns a 1-D contiguous CPU tensor of `dtype` holding the whole storage
/// (the zip record data/<key>). Throws PickleError (or Error) when it cannot.
using StorageLoader = std::function<at::Tensor(const std::string& key, c10::ScalarType dtype)>;

/// Decodes `size` bytes of pickle data. Result types: dict and collections.OrderedDict ->
/// GenericDict (key and value type Any, insertion order kept); list, set -> GenericList (Any);
/// tuple -> Tuple; str and bytes -> string; int (up to 64 bits) -> int; float -> double;
/// bool; None; tensors rebuilt by torch._utils._rebuild_tensor_v2 / _rebuild_parameter over a
/// storage from `load_storage` -> Tensor (a strided view of the storage, bounds checked);
/// torch.jit._pickle.build_*list -> list; any other class or function result -> a
/// PickledObject capsule (its state is ignored). Throws PickleError for truncated or malformed
/// data, an unknown opcode, a missing memo entry or a stack underflow; never reads outside
/// [data, data + size).
c10::IValue unpickle(const char* data, size_t size, const StorageLoader& load_storage);

class TorchZip;

/// The StorageLoader of a torch zip archive: storage `key` is the record `<folder><key>`
/// ("data/" for torch.save files and TorchScript's data.pkl, "constants/" for its constants.pkl),
/// checked to be a whole number of `dtype` elements and read, its CRC-32 verified, straight into
/// the tensor: the file's bytes plus the tensors, never more. Throws PickleError for a missing
/// record or a size that is not whole elements, ZipError for a damaged record. `zip` must
/// outlive the loader.
StorageLoader zipStorageLoader(const TorchZip& zip, const std::string& folder);

}  // namespace trainscope
