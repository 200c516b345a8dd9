"""Writes .npy files with real NumPy for the [numpy] tests in test_npy.cpp.

For each array it also writes NAME.txt: "rows cols" then every value as NumPy rounds it to
float32, printed with 9 significant digits (enough to give back the exact float32).
Usage: npy_reference.py OUTPUT_DIR
"""
import os
import sys

import numpy as np


def save_with_values(out, name, array, version=None):
    path = os.path.join(out, name + ".npy")
    if version is None:
        np.save(path, array)
    else:
        with open(path, "wb") as f:
            np.lib.format.write_array(f, array, version=version)
    rounded = array.astype(np.float32)
    with open(os.path.join(out, name + ".txt"), "w") as f:
        f.write("%d %d\n" % rounded.shape)
        f.write("\n".join(format(float(v), ".9g") for v in rounded.ravel()) + "\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)
    f4 = rng.standard_normal((3, 7)).astype(np.float32)
    f8 = rng.standard_normal((3, 7)) * 10.0  # float64 values that need rounding to float32
    save_with_values(out, "f4_3x7", f4)
    save_with_values(out, "f8_3x7", f8)
    save_with_values(out, "f4_1x1", np.array([[0.1]], dtype=np.float32))
    save_with_values(out, "f8_1x1", np.array([[1.0 / 3.0]], dtype=np.float64))
    # Edge values: negative zero, a float32 subnormal, the largest finite float32 region.
    save_with_values(out, "f8_2x3", np.array([[0.1, -0.0, 1e-40], [3.4e38, -1e-3, 7.0]]))
    save_with_values(out, "f4_3x7_v2", f4, version=(2, 0))
    save_with_values(out, "f4_3x7_v3", f4, version=(3, 0))
    # Files the reader must refuse, each for one reason.
    np.save(os.path.join(out, "fortran.npy"), np.asfortranarray(f4))
    np.save(os.path.join(out, "int64.npy"), np.arange(6, dtype=np.int64).reshape(2, 3))
    np.save(os.path.join(out, "big_endian.npy"), f4.astype(">f4"))
    np.save(os.path.join(out, "rank1.npy"), np.arange(3, dtype=np.float32))


if __name__ == "__main__":
    main()
