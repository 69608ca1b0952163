// A small unpickler for what torch.save and torch::pickle_save write. Opcode names and
// semantics follow CPython's Lib/pickle.py (protocols 2 to 5); tensor rebuilding follows
// torch/_utils.py (_rebuild_tensor_v2, _rebuild_parameter) and torch/serialization.py
// (persistent ids of the zip format).
#include "core/io/pickle_reader.h"

#include <ATen/ATen.h>
#include <ATen/core/Dict.h>
#include <ATen/core/List.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/io/torch_zip.h"

namespace trainscope {
namespace {

using c10::IValue;

/// A GLOBAL/STACK_GLOBAL reference (a class or function), resolved when it is called.
struct PickledGlobal : torch::CustomClassHolder {
  PickledGlobal(std::string m, std::string n) : module(std::move(m)), name(std::move(n)) {}
  std::string module, name;
  std::string qualified() const { return module + "." + name; }
};

const PickledGlobal* asGlobal(const IValue& v) {
  if (!v.isCapsule()) return nullptr;
  return dynamic_cast<const PickledGlobal*>(v.toCapsule().get());
}

std::optional<c10::ScalarType> storageDtype(const std::string& name) {
  static const std::map<std::string, c10::ScalarType> table = {
      {"FloatStorage", c10::kFloat},
      {"DoubleStorage", c10::kDouble},
      {"HalfStorage", c10::kHalf},
      {"BFloat16Storage", c10::kBFloat16},
      {"LongStorage", c10::kLong},
      {"IntStorage", c10::kInt},
      {"ShortStorage", c10::kShort},
      {"CharStorage", c10::kChar},
      {"ByteStorage", c10::kByte},
      {"BoolStorage", c10::kBool},
      {"ComplexFloatStorage", c10::kComplexFloat},
      {"ComplexDoubleStorage", c10::kComplexDouble},
      {"UntypedStorage", c10::kByte}};
  auto it = table.find(name);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

c10::impl::GenericDict newDict() {
  return c10::impl::GenericDict(c10::AnyType::get(), c10::AnyType::get());
}
c10::impl::GenericList newList() { return c10::impl::GenericList(c10::AnyType::get()); }

IValue object(const std::string& type) {
  return IValue::make_capsule(c10::make_intrusive<PickledObject>(type));
}

class Unpickler {
 public:
  Unpickler(const char* data, size_t size, const StorageLoader& load)
      : data_(data), size_(size), load_(load) {}

  IValue run() {
    // What the decoded containers and memo entries may hold, estimated per object: a pickle
    // that needs more is refused before it exhausts memory (10^6 empty lists take 3 MB of
    // pickle, 200 MB decoded). Values on the stack and in containers (16 bytes each) are not
    // counted here: each takes at least one opcode byte of the file, so the file's size bounds
    // them (counted, a list of one dict of floats per epoch used up the budget at 60,000 epochs
    // of history).
    const uint64_t budget = 4 * static_cast<uint64_t>(size_) + (uint64_t{8} << 20);
    while (true) {
      if (192 * kept_.size() + 64 * memo_.size() > budget)
        fail("a pickle that builds more objects than its " + std::to_string(size_) +
             " bytes can hold (corrupt or crafted)");
      if (stack_.size() + elements_ > 2 * static_cast<uint64_t>(size_) + 1024)
        fail("a pickle that holds more values than its " + std::to_string(size_) +
             " bytes can encode (corrupt or crafted)");
      const size_t at = pos_;
      const uint8_t op = u8();
      op_at_ = at;
      switch (op) {
        case 0x80:  // PROTO
          if (u8() > 5) fail("pickle protocol newer than 5");
          break;
        case 0x95:  // FRAME: an 8-byte length; the frame's opcodes follow inline
          bytes(8);
          break;
        case '.':  // STOP
          if (stack_.size() != 1 || !marks_.empty()) fail("STOP with a stack of other than 1");
          return stack_.back();
        case '(':  // MARK
          marks_.push_back(stack_.size());
          break;
        case '0':  // POP
          pop();
          break;
        case '1':  // POP_MARK
          popMark();
          break;
        case '2':  // DUP
          stack_.push_back(top());
          break;
        case 'N':
          stack_.emplace_back();
          break;
        case 0x88:  // NEWTRUE
          stack_.emplace_back(true);
          break;
        case 0x89:  // NEWFALSE
          stack_.emplace_back(false);
          break;
        case 'J':  // BININT
          stack_.emplace_back(static_cast<int64_t>(static_cast<int32_t>(le(4))));
          break;
        case 'K':  // BININT1
          stack_.emplace_back(static_cast<int64_t>(u8()));
          break;
        case 'M':  // BININT2
          stack_.emplace_back(static_cast<int64_t>(le(2)));
          break;
        case 0x8a:  // LONG1
          stack_.emplace_back(longValue(u8()));
          break;
        case 0x8b:  // LONG4
          stack_.emplace_back(longValue(le(4)));
          break;
        case 'G': {  // BINFLOAT: big-endian IEEE 754 double
          const char* b = bytes(8);
          uint64_t bits = 0;
          for (int i = 0; i < 8; ++i) bits = (bits << 8) | static_cast<uint8_t>(b[i]);
          double d;
          std::memcpy(&d, &bits, sizeof d);
          stack_.emplace_back(d);
          break;
        }
        case 'X':  // BINUNICODE
        case 'T':  // BINSTRING
        case 'B':  // BINBYTES
          stack_.emplace_back(text(le(4)));
          break;
        case 0x8c:  // SHORT_BINUNICODE
        case 'U':   // SHORT_BINSTRING
        case 'C':   // SHORT_BINBYTES
          stack_.emplace_back(text(u8()));
          break;
        case 0x8d:  // BINUNICODE8
        case 0x8e:  // BINBYTES8
        case 0x96:  // BYTEARRAY8
          stack_.emplace_back(text(le(8)));
          break;
        case ')':  // EMPTY_TUPLE
          stack_.push_back(tuple({}));
          break;
        case 0x85:    // TUPLE1
        case 0x86:    // TUPLE2
        case 0x87: {  // TUPLE3
          const size_t n = op - 0x84;
          if (stack_.size() < n) fail("stack underflow");
          std::vector<IValue> items(stack_.end() - n, stack_.end());
          stack_.resize(stack_.size() - n);
          stack_.push_back(tuple(std::move(items)));
          break;
        }
        case 't':  // TUPLE
          stack_.push_back(tuple(popMark()));
          break;
        case ']':  // EMPTY_LIST
          stack_.push_back(container(newList()));
          break;
        case 'l': {  // LIST
          IValue list = container(newList());
          append(list, popMark());
          stack_.push_back(list);
          break;
        }
        case 'a': {  // APPEND
          IValue v = pop();
          append(top(), {v});
          break;
        }
        case 'e': {  // APPENDS
          std::vector<IValue> items = popMark();
          append(top(), items);
          break;
        }
        case 0x8f:  // EMPTY_SET
          stack_.push_back(container(newList()));
          break;
        case 0x90: {  // ADDITEMS
          std::vector<IValue> items = popMark();
          append(top(), items);
          break;
        }
        case 0x91: {  // FROZENSET
          IValue list = container(newList());
          append(list, popMark());
          stack_.push_back(list);
          break;
        }
        case '}':  // EMPTY_DICT
          stack_.push_back(container(newDict()));
          break;
        case 'd': {  // DICT
          std::vector<IValue> items = popMark();
          IValue dict = container(newDict());
          setItems(dict, items);
          stack_.push_back(dict);
          break;
        }
        case 's': {  // SETITEM
          IValue value = pop();
          IValue key = pop();
          setItems(top(), {key, value});
          break;
        }
        case 'u': {  // SETITEMS
          std::vector<IValue> items = popMark();
          setItems(top(), items);
          break;
        }
        case 'c': {  // GLOBAL "module\nname\n"
          std::string module = line();
          std::string name = line();
          stack_.push_back(IValue::make_capsule(c10::make_intrusive<PickledGlobal>(module, name)));
          break;
        }
        case 0x93: {  // STACK_GLOBAL
          IValue name = pop(), module = pop();
          if (!module.isString() || !name.isString()) fail("STACK_GLOBAL of non-strings");
          stack_.push_back(IValue::make_capsule(
              c10::make_intrusive<PickledGlobal>(module.toStringRef(), name.toStringRef())));
          break;
        }
        case 'R': {  // REDUCE: callable(*args)
          IValue args = pop();
          IValue callable = pop();
          stack_.push_back(reduce(callable, args));
          break;
        }
        case 0x81: {  // NEWOBJ: cls.__new__(cls, *args)
          pop();
          stack_.push_back(newObject(pop()));
          break;
        }
        case 0x92: {  // NEWOBJ_EX: cls.__new__(cls, *args, **kwargs)
          pop();
          pop();
          stack_.push_back(newObject(pop()));
          break;
        }
        case 'b':  // BUILD: obj.__setstate__(state). OrderedDict's state is state_dict's
          // _metadata (module versions); other objects are opaque. Both ignore it.
          pop();
          top();
          break;
        case 'Q': {  // BINPERSID
          IValue pid = pop();
          stack_.push_back(persistentLoad(pid));
          break;
        }
        case 'q':  // BINPUT
          memo_[u8()] = top();
          break;
        case 'r':  // LONG_BINPUT
          memo_[le(4)] = top();
          break;
        case 0x94:  // MEMOIZE
          memo_[memo_.size()] = top();
          break;
        case 'h':  // BINGET
          stack_.push_back(memo(u8()));
          break;
        case 'j':  // LONG_BINGET
          stack_.push_back(memo(le(4)));
          break;
        default: {
          char hex[8];
          std::snprintf(hex, sizeof hex, "0x%02x", op);
          fail(std::string("unsupported pickle opcode ") + hex);
        }
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw PickleError(what + " at byte " + std::to_string(op_at_) + " of the pickle");
  }

  const char* bytes(uint64_t n) {
    if (n > size_ - pos_) fail("the pickle data ends early (truncated)");
    const char* p = data_ + pos_;
    pos_ += n;
    return p;
  }
  uint8_t u8() { return static_cast<uint8_t>(*bytes(1)); }
  uint64_t le(int n) {
    const char* b = bytes(n);
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[i]);
    return v;
  }
  std::string text(uint64_t n) {
    const char* b = bytes(n);
    return std::string(b, n);
  }
  std::string line() {
    const void* nl = std::memchr(data_ + pos_, '\n', size_ - pos_);
    if (!nl) fail("the pickle data ends early (truncated)");
    const size_t n = static_cast<const char*>(nl) - (data_ + pos_);
    std::string s(data_ + pos_, n);
    pos_ += n + 1;
    return s;
  }
  IValue longValue(uint64_t n) {
    if (n > 8) fail("an integer wider than 64 bits");
    if (n == 0) return IValue(int64_t{0});
    uint64_t v = le(static_cast<int>(n));
    if (n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);  // sign-extend
    return IValue(static_cast<int64_t>(v));
  }

  IValue pop() {
    if (stack_.empty() || (!marks_.empty() && stack_.size() <= marks_.back()))
      fail("stack underflow");
    IValue v = std::move(stack_.back());
    stack_.pop_back();
    return v;
  }
  IValue& top() {
    if (stack_.empty() || (!marks_.empty() && stack_.size() <= marks_.back()))
      fail("stack underflow");
    return stack_.back();
  }
  std::vector<IValue> popMark() {
    if (marks_.empty()) fail("no MARK on the stack");
    const size_t m = marks_.back();
    marks_.pop_back();
    std::vector<IValue> items(stack_.begin() + m, stack_.end());
    stack_.resize(m);
    return items;
  }
  IValue memo(uint64_t key) const {
    auto it = memo_.find(key);
    if (it == memo_.end()) fail("memo entry " + std::to_string(key) + " missing");
    return it->second;
  }

  void append(const IValue& target, const std::vector<IValue>& items) {
    if (target.isList()) {
      auto list = target.toList();
      for (const auto& v : items) {
        nest(target, v);
        list.push_back(v);
      }
    } else if (!target.isCapsule()) {  // list subclasses and other objects: opaque
      fail("APPEND to a " + target.tagKind());
    }
  }
  void setItems(const IValue& target, const std::vector<IValue>& items) {
    if (items.size() % 2 != 0) fail("SETITEMS with an odd number of items");
    if (target.isGenericDict()) {
      auto dict = target.toGenericDict();
      for (size_t i = 0; i < items.size(); i += 2) {
        const IValue& k = items[i];
        if (!(k.isString() || k.isInt() || k.isDouble() || k.isBool() || k.isNone()))
          fail("a dict key of type " + k.tagKind());
        nest(target, items[i + 1]);
        dict.insert_or_assign(k, items[i + 1]);
      }
    } else if (!target.isCapsule()) {
      fail("SETITEMS on a " + target.tagKind());
    }
  }

  /// Nesting bookkeeping: every list, dict and tuple made here is kept alive (so its address
  /// names it until the end) with its depth (1 + its deepest item's). A container that has been
  /// put into another is sealed: changing it afterwards (which no pickler does except to make a
  /// cycle) is refused, so depths stay exact and there are no cycles. Nesting deeper than
  /// kMaxDepth is refused: libtorch's IValue destructors and printers recurse once per level.
  static constexpr uint32_t kMaxDepth = 256;
  static bool isContainer(const IValue& v) { return v.isList() || v.isGenericDict() || v.isTuple(); }
  uint32_t depthOf(const IValue& v) const {
    if (!isContainer(v)) return 0;
    auto it = depth_.find(v.internalToPointer());
    return it == depth_.end() ? 1 : it->second;
  }
  IValue container(IValue v) {
    kept_.push_back(v);
    depth_[v.internalToPointer()] = 1;
    return v;
  }
  void nest(const IValue& target, const IValue& item) {
    const void* t = target.internalToPointer();
    if (sealed_.count(t)) fail("a container changed after it was nested in another (a cycle?)");
    ++elements_;
    if (isContainer(item)) {
      if (item.internalToPointer() == t) fail("a container that contains itself");
      sealed_.insert(item.internalToPointer());
    }
    const uint32_t d = std::max(depthOf(target), depthOf(item) + 1);
    if (d > kMaxDepth)
      fail("containers nested more than " + std::to_string(kMaxDepth) + " deep");
    depth_[t] = d;
  }
  IValue tuple(std::vector<IValue> items) {
    uint32_t d = 1;
    elements_ += items.size();
    for (const IValue& v : items) {
      d = std::max(d, depthOf(v) + 1);
      if (isContainer(v)) sealed_.insert(v.internalToPointer());
    }
    if (d > kMaxDepth)
      fail("containers nested more than " + std::to_string(kMaxDepth) + " deep");
    IValue t = c10::ivalue::Tuple::create(std::move(items));
    kept_.push_back(t);
    depth_[t.internalToPointer()] = d;
    return t;
  }

  IValue newObject(const IValue& cls) {
    const PickledGlobal* g = asGlobal(cls);
    if (!g) fail("NEWOBJ of something that is not a class");
    return object(g->qualified());
  }

  IValue reduce(const IValue& callable, const IValue& args) {
    const PickledGlobal* g = asGlobal(callable);
    if (!g) fail("REDUCE of something that is not a class or function");
    if (!args.isTuple()) fail("REDUCE arguments that are not a tuple");
    const auto& a = args.toTupleRef().elements();
    const std::string q = g->qualified();
    if (q == "collections.OrderedDict" || q == "builtins.dict" || q == "__builtin__.dict") {
      IValue dict = container(newDict());
      if (!a.empty() && a[0].isList()) {  // OrderedDict([(key, value), ...])
        for (const IValue& kv : a[0].toListRef()) {
          if (!kv.isTuple() || kv.toTupleRef().elements().size() != 2)
            fail("OrderedDict items that are not pairs");
          setItems(dict, {kv.toTupleRef().elements()[0], kv.toTupleRef().elements()[1]});
        }
      }
      return dict;
    }
    if (q == "torch._utils._rebuild_tensor_v2" || q == "torch._utils._rebuild_tensor")
      return rebuildTensor(a);
    if (q == "torch._utils._rebuild_parameter" ||
        q == "torch._utils._rebuild_parameter_with_state") {
      if (a.empty() || !a[0].isTensor()) fail(q + " without a tensor");
      return a[0];
    }
    if (g->module == "torch.jit._pickle" &&
        (g->name == "build_intlist" || g->name == "build_doublelist" ||
         g->name == "build_boollist" || g->name == "build_tensorlist" ||
         g->name == "restore_type_tag")) {
      if (a.empty()) fail(q + " without an argument");
      return a[0];
    }
    if (q == "builtins.set" || q == "builtins.frozenset" || q == "__builtin__.set") {
      IValue list = container(newList());
      if (!a.empty() && a[0].isList()) {
        std::vector<IValue> items(a[0].toListRef().begin(), a[0].toListRef().end());
        append(list, items);
      }
      return list;
    }
    if (q == "torch.device" && a.size() == 1 && a[0].isString()) return a[0];
    return object(q);  // anything else: opaque, named by its callable
  }

  /// torch._utils._rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad,
  /// backward_hooks[, metadata]).
  IValue rebuildTensor(const std::vector<IValue>& a) {
    if (a.size() < 4 || !a[0].isTensor() || !a[1].isInt() || !a[2].isTuple() || !a[3].isTuple())
      fail("a tensor record of an unexpected form");
    const at::Tensor& storage = a[0].toTensor();
    const int64_t offset = a[1].toInt();
    std::vector<int64_t> sizes, strides;
    for (const IValue& v : a[2].toTupleRef().elements()) {
      if (!v.isInt() || v.toInt() < 0) fail("a tensor size that is not a non-negative integer");
      sizes.push_back(v.toInt());
    }
    for (const IValue& v : a[3].toTupleRef().elements()) {
      if (!v.isInt() || v.toInt() < 0) fail("a tensor stride that is not a non-negative integer");
      strides.push_back(v.toInt());
    }
    if (sizes.size() != strides.size()) fail("a tensor with sizes and strides of other lengths");
    if (sizes.size() > 64) fail("a tensor of more than 64 dimensions");
    const int64_t numel = storage.numel();
    if (offset < 0 || offset > numel) fail("a tensor offset outside its storage");
    bool empty = false;
    for (int64_t s : sizes) empty = empty || s == 0;
    if (!empty) {
      __int128 last = offset;  // index of the last element; stays small: checked at each term
      for (size_t i = 0; i < sizes.size(); ++i) {
        last += static_cast<__int128>(sizes[i] - 1) * strides[i];
        if (last >= numel) fail("a tensor that reaches outside its storage (corrupt sizes?)");
      }
    }
    return storage.as_strided(sizes, strides, offset);
  }

  /// ('storage', torch.<T>Storage, key, location, numel) -> the storage as a 1-D tensor.
  IValue persistentLoad(const IValue& pid) {
    if (!pid.isTuple()) fail("a persistent id that is not a tuple");
    const std::vector<IValue> e = pid.toTupleRef().elements().vec();
    if (e.size() < 3 || !e[0].isString() || e[0].toStringRef() != "storage")
      fail("a persistent id that is not a tensor storage");
    const PickledGlobal* type = asGlobal(e[1]);
    std::optional<c10::ScalarType> dtype;
    if (type && type->module == "torch") dtype = storageDtype(type->name);
    if (!dtype)
      fail("a storage of unsupported type " + (type ? type->qualified() : e[1].tagKind()));
    std::string key;
    if (e[2].isString()) {
      key = e[2].toStringRef();
    } else if (e[2].isInt()) {
      key = std::to_string(e[2].toInt());
    } else {
      fail("a storage key that is not a string");
    }
    auto it = storages_.find(key);
    if (it != storages_.end()) {
      if (it->second.scalar_type() != *dtype) fail("storage " + key + " read with two dtypes");
      return it->second;
    }
    at::Tensor t = load_(key, *dtype);
    // torch.save: ('storage', type, key, location, numel); a record of another length is
    // truncated or corrupt (libtorch copies the declared length regardless).
    if (e.size() >= 5 && e[4].isInt() && e[4].toInt() != t.numel())
      fail("tensor storage " + key + " declares " + std::to_string(e[4].toInt()) +
           " elements, its record holds " + std::to_string(t.numel()));
    storages_.emplace(key, t);
    return t;
  }

  const char* data_;
  size_t size_;
  size_t pos_ = 0, op_at_ = 0;
  const StorageLoader& load_;
  std::vector<IValue> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, IValue> memo_;
  std::unordered_map<std::string, at::Tensor> storages_;
  std::vector<IValue> kept_;
  size_t elements_ = 0;  ///< items put into containers (16 bytes each)
  std::unordered_map<const void*, uint32_t> depth_;
  std::unordered_set<const void*> sealed_;
};

}  // namespace

std::string pickledObjectType(const c10::IValue& v) {
  if (!v.isCapsule()) return "";
  if (auto* o = dynamic_cast<const PickledObject*>(v.toCapsule().get())) return o->type_name;
  if (auto* g = asGlobal(v)) return g->qualified();
  return "";
}

c10::IValue unpickle(const char* data, size_t size, const StorageLoader& load_storage) {
  try {
    return Unpickler(data, size, load_storage).run();
  } catch (const c10::Error& e) {  // IValue conversions and view checks of malformed data
    throw PickleError(e.what_without_backtrace());
  }
}

StorageLoader zipStorageLoader(const TorchZip& zip, const std::string& folder) {
  return [&zip, folder](const std::string& key, c10::ScalarType dtype) {
    const std::string name = folder + key;
    if (!zip.has(name)) throw PickleError("tensor storage " + name + " is missing");
    const uint64_t size = zip.size(name);
    const size_t elem = c10::elementSize(dtype);
    if (size % elem != 0)
      throw PickleError("tensor storage " + name + " has " + std::to_string(size) +
                        " bytes, not a whole number of " + c10::toString(dtype) + " elements");
    at::Tensor t = at::empty({static_cast<int64_t>(size / elem)}, at::dtype(dtype));
    if (size > 0) zip.read(name, t.data_ptr());
    return t;
  };
}

}  // namespace trainscope
