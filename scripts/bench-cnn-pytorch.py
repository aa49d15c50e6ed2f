#!/usr/bin/env python3
"""The PyTorch side of `make bench-cnn`: leamoji's default network, layer for layer
(LayerSpec.defaultArchitecture: conv 3->16, 16->32, 32->64, 3x3 padding 1, each followed by
ReLU and 2x2 max pooling, then global average pooling and a 64->3 linear layer), on 3x64x64
inputs, float32, on the CPU with the same number of threads.

Prints one JSON object: images/s for inference at batch 1 and 32 and for training at batch 32
(forward, cross-entropy, backward, AdamW step with lr 1e-3 and weight decay 1e-4 as leamoji's
benchmark). Optional: leamoji's CI never runs it.

    python3 scripts/bench-cnn-pytorch.py --threads 2 --seconds 2
"""
import argparse
import json
import os
import time

# OpenMP's spinning waits collapse when other processes share the cores (measured on the 2-core
# machine under load: 25 images/s at batch 1 with the default policy, 409 with PASSIVE). An
# idle machine may prefer OMP_WAIT_POLICY=ACTIVE; set it in the environment to override.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import torch  # noqa: E402  (after the OpenMP setting, which torch reads when it loads)
from torch import nn


def network(classes=3):
    layers = []
    channels = 3
    for out in (16, 32, 64):
        layers += [nn.Conv2d(channels, out, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2d(2, 2)]
        channels = out
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, classes)]
    return nn.Sequential(*layers)


def rate(body, seconds):
    """Runs `body` once to warm up, then repeatedly for about `seconds`; runs per second."""
    body()
    runs = 0
    start = time.perf_counter()
    while True:
        body()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return runs / elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    model = network().float()
    one = torch.randn(1, 3, 64, 64)
    batch = torch.randn(32, 3, 64, 64)
    labels = torch.arange(32) % 3

    model.eval()
    with torch.inference_mode():
        batch1 = rate(lambda: model(one), args.seconds)
        batch32 = rate(lambda: model(batch), args.seconds) * 32

    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-4)
    loss_fn = nn.CrossEntropyLoss()

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = loss_fn(model(batch), labels)
        loss.backward()
        optimizer.step()

    training = rate(step, args.seconds) * 32
    print(json.dumps({
        "torch": torch.__version__.split("+")[0],
        "threads": torch.get_num_threads(),
        "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "inference_batch1": batch1,
        "inference_batch32": batch32,
        "training_batch32": training,
    }))


if __name__ == "__main__":
    main()
