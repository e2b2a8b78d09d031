// A minimal ZIP writer (deflate, no extra fields): enough for one executable and a README.
import { crc32, deflateRawSync } from "node:zlib";

/** @param {{ name: string, data: Buffer, mode?: number }[]} files */
export function zip(files) {
  const local = [];
  const central = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, "utf8");
    const compressed = deflateRawSync(file.data);
    const fields = sharedFields(name, file.data, compressed);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    fields.copy(header, 4);
    local.push(header, name, compressed);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(0x031e, 4);
    fields.copy(entry, 6);
    entry.writeUInt32LE(((file.mode ?? 0o644) | 0o100000) * 0x10000, 38);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, name);
    offset += header.length + name.length + compressed.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
}

/**
 * The 26 bytes a file's local header and its central directory entry both hold, in the same order:
 * version needed, flags (UTF-8 name), method (deflate), time and date (1980-01-01), CRC-32, sizes, the
 * name's length and an empty extra field.
 */
function sharedFields(name, data, compressed) {
  const fields = Buffer.alloc(26);
  fields.writeUInt16LE(20, 0);
  fields.writeUInt16LE(0x0800, 2);
  fields.writeUInt16LE(8, 4);
  fields.writeUInt32LE(0x00210000, 6);
  fields.writeUInt32LE(crc32(data), 10);
  fields.writeUInt32LE(compressed.length, 14);
  fields.writeUInt32LE(data.length, 18);
  fields.writeUInt16LE(name.length, 22);
  return fields;
}
