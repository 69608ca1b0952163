#!/usr/bin/python3
"""Generator of hostile checkpoint files (issue 20 section 1), run by the test suites.

usage: make_hostile_checkpoints.py GOOD_CHECKPOINT OUT_DIR

GOOD_CHECKPOINT is a TrainScope checkpoint of a moons MLP (hidden [32, 32]). Writes one file per
kind into OUT_DIR and OUT_DIR/manifest.tsv: "<file name>\t<expect>\t<what>" where expect has
one letter per front end that reads checkpoints, in the order inspect (a checkpoint, else a
torch.save file --init-weights takes),
train --resume (and the dashboard's Load...), train --init-weights, verify-repro --checkpoint:
"o" it is read (exit 0, the file unchanged), "r" it is refused (exit 2 naming the file).
Needs Python's torch (Debian's python3-torch) for the kinds re-saved by torch.save.
"""
import collections
import io
import os
import pickle
import struct
import sys
import zipfile

import torch

good_path, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
good = open(good_path, "rb").read()
manifest = []


def emit(name, data, expect, what):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    manifest.append((name, expect, what))


def records(data):
    z = zipfile.ZipFile(io.BytesIO(data))
    return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def rezip(recs, compression=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, body in recs:
            z.writestr(zipfile.ZipInfo(name), body, compress_type=compression)
    return buf.getvalue()


def with_pickle(pkl):
    """The good checkpoint with its data.pkl replaced by `pkl` (other records kept, CRCs valid)."""
    return rezip([(n, pkl if n.endswith("/data.pkl") else b) for n, b in records(good)])


def with_record(suffix, body):
    return rezip([(n, body if n.endswith(suffix) else b) for n, b in records(good)])


def data_offset(data, suffix):
    """Byte offset of the record ending in `suffix` inside the zip file."""
    z = zipfile.ZipFile(io.BytesIO(data))
    info = [i for i in z.infolist() if i.filename.endswith(suffix)][0]
    n, e = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    return info.header_offset + 30 + n + e, info.file_size


ckpt = torch.load(good_path)
weight_key = None  # the storage key of model_state_dict['0.weight'] ([32, 2] float32)


def save(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


class Crafted(pickle.Pickler):
    """torch.save's pickler with tensors in `override` pickled with other sizes/strides."""
    override = {}

    def reducer_override(self, obj):
        if isinstance(obj, torch.Tensor) and id(obj) in self.override:
            offset, size, stride = self.override[id(obj)]
            return (torch._utils._rebuild_tensor_v2,
                    (obj.storage(), offset, size, stride, False, collections.OrderedDict()))
        return NotImplemented


class CraftedModule:
    Pickler = Crafted
    Unpickler = pickle.Unpickler
    load = pickle.load
    dump = pickle.dump


def crafted(tensor, offset, size, stride):
    Crafted.override = {id(tensor): (offset, size, stride)}
    buf = io.BytesIO()
    torch.save(ckpt, buf, pickle_module=CraftedModule)
    Crafted.override = {}
    return buf.getvalue()


# ---- valid files: they load ----
emit("good.pt", good, "oooo", "the checkpoint TrainScope wrote")
emit("python_resaved.pt", save(ckpt), "oooo", "torch.load + torch.save in Python (APPEND 0x61)")

# ---- malformed pickles (libtorch 1.13's unpickler crashed on each) ----
emit("reduce_empty_stack.pt", with_pickle(b"\x80\x02R."), "rrrr", "REDUCE on an empty stack")
emit("tuple3_one_item.pt", with_pickle(b"\x80\x02K\x01\x87."), "rrrr", "TUPLE3 with one item")
emit("nested_tuple1.pt", with_pickle(b"\x80\x02K\x01" + b"\x85" * 10**6 + b"."), "rrrr",
     "10^6 nested TUPLE1")
emit("nested_lists.pt", with_pickle(b"\x80\x02" + b"]" * 10**6 + b"a" * (10**6 - 1) + b"."),
     "rrrr", "10^6 nested lists")
emit("self_list.pt", with_pickle(b"\x80\x02]q\x00h\x00a."), "rrrr", "a list containing itself")
emit("huge_string.pt", with_pickle(b"\x80\x02X\xf0\xff\xff\xff" + b"x" * 64 + b"."), "rrrr",
     "a str declaring 4 GiB")
emit("huge_string8.pt", with_pickle(b"\x80\x04\x8d" + struct.pack("<Q", 2**62) + b"xx."),
     "rrrr", "a BINUNICODE8 declaring 2^62 bytes")
emit("unknown_opcode.pt", with_pickle(b"\x80\x02\xff."), "rrrr", "an unknown opcode")
emit("no_stop.pt", with_pickle(b"\x80\x02}q\x00"), "rrrr", "a pickle without STOP")
emit("memo_missing.pt", with_pickle(b"\x80\x02h\x07."), "rrrr", "BINGET of a missing memo entry")
emit("os_system.pt", with_pickle(b"\x80\x02cposix\nsystem\nX\x0c\x00\x00\x00touch /tmp/x\x85R."),
     "rrrr", "a pickle calling os.system (never executed)")
emit("list_root.pt", with_pickle(pickle.dumps([1, 2, 3], protocol=2)), "rrrr", "a list, no dict")
emit("int_keys.pt", with_pickle(pickle.dumps({1: 2}, protocol=2)), "rrrr", "a dict of int keys")

# ---- tensor records that do not match the pickle ----
emit("weight_record_empty.pt", with_record("/data/0", b""), "rrrr",
     "a [32, 2] weight whose record holds 0 bytes")
off, size = data_offset(good, "/data/0")
short = records(good)
emit("weight_record_short.pt", with_record("/data/0", dict(short)[[n for n, _ in short
     if n.endswith("/data/0")][0]][:-4]), "rrrr", "a weight record 4 bytes short")
emit("weight_record_odd.pt", with_record("/data/0", b"\x00" * 7), "rrrr",
     "a float32 record of 7 bytes")
w = ckpt["model_state_dict"]["0.weight"]
emit("stride_65536.pt", crafted(w, 0, (32, 2), (65536, 1)), "rrrr",
     "a stride (65536, 1) over 64 floats")
emit("offset_past_end.pt", crafted(w, 1000, (32, 2), (2, 1)), "rrrr", "a storage offset past its end")
emit("negative_size.pt", crafted(w, 0, (-32, 2), (2, 1)), "rrrr", "a negative size")
emit("numel_zero_shape.pt", crafted(w, 0, (0, 2), (2, 1)), "orrr",
     "a [0, 2] tensor for the [32, 2] weight")
emit("wrong_shape.pt", crafted(w, 0, (2, 32), (32, 1)), "orrr", "a [2, 32] tensor for [32, 2]")

# ---- corruption of the zip (byte flips, truncation) ----
for name, suffix, delta in (("flip_weight.pt", "/data/0", 5), ("flip_pickle.pt", "/data.pkl", 40)):
    b = bytearray(good)
    o, _ = data_offset(good, suffix)
    b[o + delta] ^= 0x01
    emit(name, bytes(b), "rrrr", "one flipped bit in " + suffix.strip("/"))
for cut in (1, 2, 22, 100, len(good) // 2):
    emit("cut_%d.pt" % cut, good[:-cut], "rrrr", "the last %d bytes cut" % cut)
b = bytearray(good)
cd = good.rfind(b"PK\x01\x02")
b[cd + 20:cd + 24] = struct.pack("<I", 0xFFFFFF00)  # compressed size of the last record
emit("central_size_huge.pt", bytes(b), "rrrr", "a central directory size of 4 GiB")
emit("deflated.pt", rezip(records(good), zipfile.ZIP_DEFLATED), "rrrr", "deflated records")
emit("two_folders.pt", rezip([(("other/" + n.split("/", 1)[1]) if n.endswith("version") else n, b)
                              for n, b in records(good)]), "rrrr", "records in two folders")
emit("no_data_pkl.pt", rezip([(n, b) for n, b in records(good) if not n.endswith("data.pkl")]),
     "rrrr", "no data.pkl")

# ---- values out of range (the dict is well formed) ----
def variant(**changes):
    c = dict(ckpt)
    c.update(changes)
    return save(c)


bad_state = {k: dict(v) for k, v in ckpt["optimizer_state_dict"]["state"].items()}
bad_state[0]["step"] = torch.arange(5.0)
emit("step_vector.pt", variant(optimizer_state_dict=dict(ckpt["optimizer_state_dict"],
     state=bad_state)), "oror", "state.0.step a vector of 5")
emit("epoch_huge.pt", variant(epoch=10**12), "rror", "epoch 10^12")
emit("global_step_max.pt", variant(global_step=2**63 - 1), "rror", "global_step INT64_MAX")
emit("format_newer.pt", variant(format_version=99), "rror", "format_version 99")
emit("history_long_column.pt", variant(history=dict(ckpt["history"],
     step=torch.arange(len(ckpt["history"]["epoch"]) + 3))), "rror",
     "a history column 3 entries longer than the others")
emit("history_float_epochs.pt", variant(history=dict(ckpt["history"],
     epoch=ckpt["history"]["epoch"].double())), "rror", "history epochs as float64")
emit("not_trainscope.pt", save({"model_state_dict": ckpt["model_state_dict"]}), "oror",
     "a Python dict without 'format'")

# ---- not zip files at all ----
emit("empty.pt", b"", "rrrr", "an empty file")
emit("zeros.pt", b"\x00" * 100000, "rrrr", "zero bytes")
emit("random.pt", bytes((i * 7919 + 13) % 251 for i in range(50000)), "rrrr", "noise")
emit("text.pt", b"epoch,step\n1,2\n", "rrrr", "a CSV file")
emit("legacy.pt", b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19.", "rrrr", "the legacy format")

with open(os.path.join(out, "manifest.tsv"), "w") as f:
    for row in manifest:
        f.write("\t".join(row) + "\n")
print(len(manifest), "files")
