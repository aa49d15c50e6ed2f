"""pth_reader: a legacy (pre-zip) PyTorch state dict read as NumPy arrays without PyTorch. The
files are written here the way torch.save wrote them (five pickles, then the storages' bytes),
with stand-ins for the torch names the pickle refers to. Skipped without NumPy."""
import collections
import io
import os
import pickle
import struct
import sys
import types
import unittest
from unittest import mock

import support

try:
    import numpy as np
    import pth_reader
except ImportError:  # pth_reader needs NumPy
    np = None


def _rebuild_tensor_v2(*args):
    raise AssertionError("only pickled, never called")


class FloatStorage:
    pass


class LongStorage:
    pass


_rebuild_tensor_v2.__module__ = "torch._utils"
FloatStorage.__module__ = LongStorage.__module__ = "torch"


class Storage:
    def __init__(self, kind, key, values):
        self.kind, self.key, self.values = kind, key, values


class Tensor:
    def __init__(self, storage, offset, size, stride):
        self.args = (storage, offset, size, stride, False, collections.OrderedDict())

    def __reduce__(self):
        return _rebuild_tensor_v2, self.args


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        if isinstance(obj, Storage):
            return ("storage", obj.kind, obj.key, "cpu", len(obj.values))
        return None


def legacy_pth(state, storages):
    """The bytes torch.save's legacy format gives `state` (name -> Tensor) and `storages`."""
    torch = types.ModuleType("torch")
    utils = types.ModuleType("torch._utils")
    torch.FloatStorage, torch.LongStorage, torch._utils = FloatStorage, LongStorage, utils
    utils._rebuild_tensor_v2 = _rebuild_tensor_v2
    out = io.BytesIO()
    with mock.patch.dict(sys.modules, {"torch": torch, "torch._utils": utils}):
        pickle.dump(pth_reader.MAGIC, out, protocol=2)
        pickle.dump(1001, out, protocol=2)
        pickle.dump({"little_endian": True}, out, protocol=2)
        _Pickler(out, protocol=2).dump(collections.OrderedDict(state))
        pickle.dump([s.key for s in storages], out, protocol=2)
    for s in storages:
        fmt = "<%d%s" % (len(s.values), "f" if s.kind is FloatStorage else "q")
        out.write(struct.pack("<q", len(s.values)) + struct.pack(fmt, *s.values))
    return out.getvalue()


@unittest.skipIf(np is None, "no NumPy")
class PthReaderTests(support.TempCase):
    def save(self, data):
        return support.write_bytes(os.path.join(self.tmp, "w.pth"), data)

    def test_shapes_strides_offsets_and_types(self):
        floats = Storage(FloatStorage, "0", [float(v) for v in range(8)])
        longs = Storage(LongStorage, "1", [7, -3])
        path = self.save(legacy_pth({
            "conv.weight": Tensor(floats, 0, (2, 3), (3, 1)),
            "conv.weight_t": Tensor(floats, 0, (3, 2), (1, 3)),    # a transposed view
            "bias": Tensor(floats, 6, (2,), (1,)),                 # an offset into the storage
            "bn.num_batches_tracked": Tensor(longs, 1, (), ()),
        }, [floats, longs]))
        state = pth_reader.load(path)
        self.assertEqual(list(state), ["conv.weight", "conv.weight_t", "bias", "bn.num_batches_tracked"])
        np.testing.assert_array_equal(state["conv.weight"], [[0, 1, 2], [3, 4, 5]])
        np.testing.assert_array_equal(state["conv.weight_t"], [[0, 3], [1, 4], [2, 5]])
        np.testing.assert_array_equal(state["bias"], [6, 7])
        self.assertEqual(state["conv.weight"].dtype, np.float32)
        self.assertEqual(state["bn.num_batches_tracked"].dtype, np.int64)
        self.assertEqual(int(state["bn.num_batches_tracked"]), -3)
        state["bias"][0] = 99  # a copy, not a view of the file's bytes
        self.assertEqual(float(pth_reader.load(path)["bias"][0]), 6)

    def test_a_cut_storage_is_refused(self):
        floats = Storage(FloatStorage, "0", [1.0, 2.0, 3.0])
        data = legacy_pth({"w": Tensor(floats, 0, (3,), (1,))}, [floats])
        with self.assertRaisesRegex(ValueError, "cut short"):
            pth_reader.load(self.save(data[:-2]))

    def test_other_classes_are_refused(self):
        out = io.BytesIO()
        for header in (pth_reader.MAGIC, 1001, {}):
            pickle.dump(header, out, protocol=2)
        pickle.dump({"w": print}, out, protocol=2)  # builtins.print: code, not a tensor
        with self.assertRaisesRegex(pickle.UnpicklingError, r"refusing \S*print"):
            pth_reader.load(self.save(out.getvalue()))

    def test_a_zip_file_is_not_read(self):
        with self.assertRaisesRegex(ValueError, "not a legacy PyTorch file"):
            pth_reader.load(self.save(b"PK\x03\x04 a zip-format checkpoint"))


if __name__ == "__main__":
    unittest.main()
