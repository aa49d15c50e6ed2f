#!/usr/bin/env python3
"""The peers' side of the EfficientNet-Lite0 inference benchmark: PyTorch and ONNX Runtime.

Each peer runs the original network (scripts/efficientnet_reference.py: batch norms kept, eval
mode) the way its users run it, in its default configuration:
  * torch: model.eval(), torch.no_grad(), torch.set_num_threads(T);
  * onnxruntime: the same model exported with torch.onnx.export (opset 17, dynamic batch
    axis) to a temporary file, an InferenceSession on the CPU provider with
    intra_op_num_threads=T and otherwise default session options (graph optimisations on,
    which fold the batch norms themselves).
No environment tuning (OMP_WAIT_POLICY and the like) is done.

For batch 1 and batch 32 it measures images per second over --seconds of wall time, after a
warm-up, on random normalised input of --size x --size. Prints one JSON object:
{"torch": {"batch1": ips, "batch32": ips}, "onnxruntime": {...}, "torch_version": ...,
 "onnxruntime_version": ..., "size": ..., "threads": ...,
 "other_processes_cpu_share": share of all cores other processes used meanwhile (0 = quiet)}

Usage: bench-backbone-peers.py --pth PTH [--size 224] [--threads 2] [--seconds 10]
"""

import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import efficientnet_reference  # noqa: E402  (the network, built from the .pth)


def machine_busy_seconds():
    """CPU seconds all processes have spent busy since boot (Linux /proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except OSError:
        return None
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds():
    t = os.times()
    return t.user + t.system


def images_per_second(run, batch, seconds):
    """Runs `run()` (one batch) for a warm-up, then until `seconds` have passed; returns
    images per second over the timed runs."""
    for _ in range(3):
        run()
    count, start = 0, time.perf_counter()
    while True:
        run()
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count * batch / elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pth", required=True)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()

    import onnxruntime as ort

    # Other work on the machine (a build, a test run) takes cores from the peers; the CPU
    # seconds that other processes used during the run make that visible in the result.
    busy_before, ours_before = machine_busy_seconds(), own_cpu_seconds()
    wall_before = time.perf_counter()
    torch.set_num_threads(args.threads)
    model = efficientnet_reference.load(args.pth)  # eval mode
    rng = np.random.default_rng(0)
    inputs = {b: rng.standard_normal((b, 3, args.size, args.size)).astype(np.float32)
              for b in (1, 32)}
    result = {"torch": {}, "onnxruntime": {}, "size": args.size, "threads": args.threads,
              "torch_version": torch.__version__, "onnxruntime_version": ort.__version__}

    with torch.no_grad():
        for b, x in inputs.items():
            t = torch.from_numpy(x)
            result["torch"][f"batch{b}"] = round(
                images_per_second(lambda: model(t), b, args.seconds), 2)

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "efficientnet-lite0.onnx")
        # The TorchScript-based exporter (dynamo=False) needs no extra package (onnxscript);
        # the batch axis is dynamic so one file serves batch 1 and 32.
        torch.onnx.export(model, (torch.from_numpy(inputs[1]),), path, dynamo=False,
                          input_names=["x"], output_names=["logits"], opset_version=17,
                          dynamic_axes={"x": {0: "batch"}, "logits": {0: "batch"}})
        options = ort.SessionOptions()
        options.intra_op_num_threads = args.threads
        session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        with torch.no_grad():
            expected = model(torch.from_numpy(inputs[1])).numpy()
        got = session.run(None, {"x": inputs[1]})[0]
        # The exported model must compute the same thing before its speed means anything.
        assert np.abs(got - expected).max() < 1e-3, np.abs(got - expected).max()
        for b, x in inputs.items():
            result["onnxruntime"][f"batch{b}"] = round(
                images_per_second(lambda: session.run(None, {"x": x}), b, args.seconds), 2)

    if busy_before is not None:
        others = (machine_busy_seconds() - busy_before) - (own_cpu_seconds() - ours_before)
        wall = time.perf_counter() - wall_before
        result["other_processes_cpu_share"] = round(max(others, 0) / wall / os.cpu_count(), 3)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
