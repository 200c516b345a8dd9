// A .npy file (format 1.0, little-endian float32, C order) written from the format's
// description, independently of the core's reader: what np.save writes for a float32 array.
export function npyFloat32(rows, cols, values) {
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  // magic (6) + version (2) + header length (2) + dict padded with spaces + '\n' to 64 bytes
  const total = Math.ceil((10 + dict.length + 1) / 64) * 64;
  const header = dict.padEnd(total - 10 - 1, ' ') + '\n';
  const bytes = Buffer.alloc(total + 4 * values.length);
  Buffer.from([0x93]).copy(bytes, 0);
  bytes.write('NUMPY', 1, 'latin1');
  bytes[6] = 1;
  bytes[7] = 0;
  bytes.writeUInt16LE(header.length, 8);
  bytes.write(header, 10, 'latin1');
  values.forEach((v, i) => bytes.writeFloatLE(v, total + 4 * i));
  return bytes;
}
