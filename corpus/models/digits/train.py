#!/usr/bin/env python3
"""Train the handwritten-digits classifier that `digits.mlir` runs.

The data is scikit-learn's `load_digits` (1,797 8x8 images of the digits 0-9,
shipped inside the package: nothing is downloaded). The network is a
multi-layer perceptron, 64 -> 32 (ReLU) -> 10, trained on 80 % of the images.
The script writes `digits.btf` (Binary Tensor Format) beside itself:

  0  w1       f32 [64, 32]   first layer's weights
  1  b1       f32 [32]       first layer's biases
  2  w2       f32 [32, 10]   second layer's weights
  3  b2       f32 [10]       second layer's biases
  4  images   f32 [360, 64]  the held-out images, pixels scaled to [0, 1]
  5  labels   i32 [360]      their digits

and prints the accuracy scikit-learn itself measures on the held-out images,
which `bef run digits.mlir` must reproduce. The outputs are committed; this
script is needed only to retrain.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install scikit-learn
    /tmp/venv/bin/python corpus/models/digits/train.py
"""

import pathlib
import struct

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier

TEST_IMAGES = 360
DTYPE_CODES = {np.dtype(np.int32): 2, np.dtype(np.float32): 4}
ROW_MAJOR_DENSE = 0


def btf_bytes(tensors):
    """The Binary Tensor Format encoding of `tensors` (row-major dense)."""
    records = []
    for tensor in tensors:
        tensor = np.ascontiguousarray(tensor)
        header = struct.pack("<QBB6x", tensor.ndim, DTYPE_CODES[tensor.dtype], ROW_MAJOR_DENSE)
        dims = struct.pack(f"<{tensor.ndim}Q", *tensor.shape)
        payload = tensor.astype(tensor.dtype.newbyteorder("<")).tobytes()
        record = header + dims + payload
        records.append(record + b"\0" * (-len(record) % 8))
    offset = 8 + 8 * len(records)
    offsets = []
    for record in records:
        offsets.append(offset)
        offset += len(record)
    head = struct.pack(f"<Q{len(records)}Q", len(records), *offsets)
    return head + b"".join(records)


def main():
    digits = load_digits()
    images = (digits.data / 16.0).astype(np.float32)
    labels = digits.target.astype(np.int32)
    train_x, test_x, train_y, test_y = train_test_split(
        images, labels, test_size=TEST_IMAGES, random_state=0, stratify=labels
    )
    model = MLPClassifier(hidden_layer_sizes=(32,), activation="relu", max_iter=600, random_state=0)
    model.fit(train_x, train_y)
    w1, w2 = (w.astype(np.float32) for w in model.coefs_)
    b1, b2 = (b.astype(np.float32) for b in model.intercepts_)

    # The accuracy in f32, computed the way the BEF program computes it.
    hidden = np.maximum(test_x @ w1 + b1, 0)
    predicted = np.argmax(hidden @ w2 + b2, axis=1)
    accuracy = np.float32(np.mean(predicted == test_y))
    print(f"scikit-learn accuracy: {model.score(test_x, test_y):.6f}")
    print(f"f32 forward pass accuracy: {accuracy:.6e}")

    out = pathlib.Path(__file__).with_name("digits.btf")
    out.write_bytes(btf_bytes([w1, b1, w2, b2, test_x, test_y]))
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
