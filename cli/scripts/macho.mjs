// An ad-hoc code signature for a 64-bit Mach-O executable, written without Apple's tools, so that the
// macOS executables built on Linux start on a Mac: arm64 runs no code without a valid signature, and
// injecting the CLI into Node's binary removes Node's own. It is what `codesign --sign -` writes: a
// code directory (SHA-256 of every 4 KiB page up to the signature), an empty requirement set and an
// empty CMS slot, in a superblob at the end of __LINKEDIT that LC_CODE_SIGNATURE points to.
// The layouts are those of Apple's cs_blobs.h and mach-o/loader.h.
import { createHash } from "node:crypto";

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSMAGIC_REQUIREMENTS = 0xfade0c01;
const CSMAGIC_BLOBWRAPPER = 0xfade0b01;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_REQUIREMENTS = 2;
const CSSLOT_SIGNATURESLOT = 0x10000;
const CS_ADHOC = 0x2;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const CD_VERSION = 0x20400; // with the executable segment's bounds
const CD_HEADER_SIZE = 88;
const PAGE_SHIFT = 12;
const PAGE_SIZE = 1 << PAGE_SHIFT;
const HASH_SIZE = 32;
const CS_HASHTYPE_SHA256 = 2;
const SPECIAL_SLOTS = 2; // -1 Info.plist (none), -2 requirements
const SEGMENT_ALIGN = 0x4000; // 16 KiB: arm64's page, a multiple of x86_64's

export const cpuTypes = { x86_64: 0x01000007, arm64: 0x0100000c };

/** The header, segments and code-signature command of a 64-bit little-endian Mach-O file. */
export function readMachO(file) {
  if (file.length < 32 || file.readUInt32LE(0) !== MH_MAGIC_64) throw new Error("not a 64-bit Mach-O file");
  const header = {
    cpuType: file.readUInt32LE(4),
    fileType: file.readUInt32LE(12),
    commands: file.readUInt32LE(16),
    commandsSize: file.readUInt32LE(20),
  };
  const segments = [];
  let signature;
  let at = 32;
  for (let index = 0; index < header.commands; index++) {
    const cmd = file.readUInt32LE(at);
    const size = file.readUInt32LE(at + 4);
    if (cmd === LC_SEGMENT_64) {
      segments.push({
        at,
        name: file.toString("latin1", at + 8, at + 24).replace(/\0+$/, ""),
        vmSize: file.readBigUInt64LE(at + 32),
        fileOffset: Number(file.readBigUInt64LE(at + 40)),
        fileSize: Number(file.readBigUInt64LE(at + 48)),
        firstSectionOffset: file.readUInt32LE(at + 64) > 0 ? file.readUInt32LE(at + 72 + 48) : undefined,
      });
    } else if (cmd === LC_CODE_SIGNATURE) {
      signature = { at, dataOffset: file.readUInt32LE(at + 8), dataSize: file.readUInt32LE(at + 12) };
    }
    at += size;
  }
  return { header, segments, signature, commandsEnd: at };
}

/**
 * `file` signed ad hoc under `identifier`, as a new buffer. A signature already there is replaced;
 * __LINKEDIT must be the last segment and end the file, as the linker and postject leave it.
 */
export function signAdHoc(file, identifier) {
  const { segments, signature, commandsEnd } = readMachO(file);
  const text = segments.find((segment) => segment.name === "__TEXT");
  const linkedit = segments.at(-1);
  if (!text || linkedit?.name !== "__LINKEDIT") throw new Error("no __TEXT, or __LINKEDIT is not last");
  const contentEnd = signature ? signature.dataOffset : linkedit.fileOffset + linkedit.fileSize;
  if (signature && signature.dataOffset + signature.dataSize !== linkedit.fileOffset + linkedit.fileSize) {
    throw new Error("the existing signature does not end __LINKEDIT");
  }
  if (contentEnd > file.length) throw new Error("__LINKEDIT runs past the end of the file");

  const codeLimit = align(contentEnd, 16);
  const pages = Math.ceil(codeLimit / PAGE_SIZE);
  const ident = Buffer.from(`${identifier}\0`, "utf8");
  const hashOffset = CD_HEADER_SIZE + ident.length + SPECIAL_SLOTS * HASH_SIZE;
  const directorySize = hashOffset + pages * HASH_SIZE;
  const requirements = blob(CSMAGIC_REQUIREMENTS, Buffer.alloc(4)); // count 0
  const wrapper = blob(CSMAGIC_BLOBWRAPPER, Buffer.alloc(0));
  const entries = [
    [CSSLOT_CODEDIRECTORY, directorySize],
    [CSSLOT_REQUIREMENTS, requirements.length],
    [CSSLOT_SIGNATURESLOT, wrapper.length],
  ];
  const superHeader = 12 + entries.length * 8;
  const superSize = superHeader + entries.reduce((sum, [, size]) => sum + size, 0);
  const dataSize = align(superSize, 16);

  // The load commands are in the first page, which the signature hashes: they change first.
  const out = Buffer.alloc(codeLimit + dataSize);
  file.copy(out, 0, 0, contentEnd);
  let command = signature?.at;
  if (command === undefined) {
    command = commandsEnd;
    if (command + 16 > (text.firstSectionOffset ?? 0))
      throw new Error("no room in the header for LC_CODE_SIGNATURE");
    out.writeUInt32LE(out.readUInt32LE(16) + 1, 16);
    out.writeUInt32LE(out.readUInt32LE(20) + 16, 20);
  }
  out.writeUInt32LE(LC_CODE_SIGNATURE, command);
  out.writeUInt32LE(16, command + 4);
  out.writeUInt32LE(codeLimit, command + 8);
  out.writeUInt32LE(dataSize, command + 12);
  const linkeditSize = codeLimit + dataSize - linkedit.fileOffset;
  out.writeBigUInt64LE(BigInt(align(linkeditSize, SEGMENT_ALIGN)), linkedit.at + 32);
  out.writeBigUInt64LE(BigInt(linkeditSize), linkedit.at + 48);

  const directory = Buffer.alloc(directorySize);
  const fields = [
    CSMAGIC_CODEDIRECTORY,
    directorySize,
    CD_VERSION,
    CS_ADHOC,
    hashOffset,
    CD_HEADER_SIZE, // identOffset
    SPECIAL_SLOTS,
    pages,
    codeLimit,
  ];
  for (const [index, value] of fields.entries()) directory.writeUInt32BE(value, index * 4);
  directory.writeUInt8(HASH_SIZE, 36);
  directory.writeUInt8(CS_HASHTYPE_SHA256, 37);
  directory.writeUInt8(0, 38); // platform
  directory.writeUInt8(PAGE_SHIFT, 39);
  // spare2, scatterOffset, teamOffset, spare3 and codeLimit64 stay 0 (40–63).
  directory.writeBigUInt64BE(BigInt(text.fileOffset), 64);
  directory.writeBigUInt64BE(BigInt(text.fileSize), 72);
  directory.writeBigUInt64BE(BigInt(CS_EXECSEG_MAIN_BINARY), 80);
  ident.copy(directory, CD_HEADER_SIZE);
  // Special slot -n sits n hashes before hashOffset; -1 (Info.plist) stays zero.
  sha256(requirements).copy(directory, hashOffset - CSSLOT_REQUIREMENTS * HASH_SIZE);
  for (let page = 0; page < pages; page++) {
    const start = page * PAGE_SIZE;
    sha256(out.subarray(start, Math.min(start + PAGE_SIZE, codeLimit))).copy(
      directory,
      hashOffset + page * HASH_SIZE,
    );
  }

  const superBlob = out.subarray(codeLimit);
  superBlob.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0);
  superBlob.writeUInt32BE(superSize, 4);
  superBlob.writeUInt32BE(entries.length, 8);
  let offset = superHeader;
  const bodies = [directory, requirements, wrapper];
  entries.forEach(([slot], index) => {
    superBlob.writeUInt32BE(slot, 12 + index * 8);
    superBlob.writeUInt32BE(offset, 16 + index * 8);
    bodies[index].copy(superBlob, offset);
    offset += bodies[index].length;
  });
  return out;
}

/**
 * Checks the code signature of `file` as the kernel does on a Mac: every page hash, the
 * requirements' hash, and the signature's place in __LINKEDIT; ad hoc unless `adHoc` is false (an
 * Apple-issued signature, whose certificates are not checked). Returns the signed identifier.
 */
export function verifySignature(file, { adHoc = true } = {}) {
  const { segments, signature } = readMachO(file);
  if (!signature) throw new Error("no LC_CODE_SIGNATURE");
  const linkedit = segments.at(-1);
  if (linkedit?.name !== "__LINKEDIT" || linkedit.fileOffset + linkedit.fileSize !== file.length) {
    throw new Error("__LINKEDIT does not end the file");
  }
  if (signature.dataOffset + signature.dataSize !== file.length)
    throw new Error("the signature does not end the file");
  const superBlob = file.subarray(signature.dataOffset);
  if (superBlob.readUInt32BE(0) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error("no embedded signature");
  const slots = new Map();
  for (let index = 0; index < superBlob.readUInt32BE(8); index++) {
    const offset = superBlob.readUInt32BE(16 + index * 8);
    slots.set(
      superBlob.readUInt32BE(12 + index * 8),
      superBlob.subarray(offset, offset + superBlob.readUInt32BE(offset + 4)),
    );
  }
  const directory = slots.get(CSSLOT_CODEDIRECTORY);
  if (directory?.readUInt32BE(0) !== CSMAGIC_CODEDIRECTORY) throw new Error("no code directory");
  if (adHoc && (directory.readUInt32BE(12) & CS_ADHOC) === 0) throw new Error("not an ad-hoc signature");
  const hashOffset = directory.readUInt32BE(16);
  const pages = directory.readUInt32BE(28);
  const codeLimit = directory.readUInt32BE(32);
  if (directory.readUInt8(37) !== CS_HASHTYPE_SHA256 || directory.readUInt8(39) !== PAGE_SHIFT) {
    throw new Error("not SHA-256 over 4 KiB pages");
  }
  if (codeLimit !== signature.dataOffset || pages !== Math.ceil(codeLimit / PAGE_SIZE)) {
    throw new Error("the code directory does not cover the file up to its signature");
  }
  for (let page = 0; page < pages; page++) {
    const start = page * PAGE_SIZE;
    const expected = directory.subarray(hashOffset + page * HASH_SIZE, hashOffset + (page + 1) * HASH_SIZE);
    if (!sha256(file.subarray(start, Math.min(start + PAGE_SIZE, codeLimit))).equals(expected)) {
      throw new Error(`page ${page} does not match its hash`);
    }
  }
  const requirements = slots.get(CSSLOT_REQUIREMENTS);
  const requirementsHash = directory.subarray(hashOffset - 2 * HASH_SIZE, hashOffset - HASH_SIZE);
  if (!requirements || !sha256(requirements).equals(requirementsHash))
    throw new Error("the requirements do not match their hash");
  const identOffset = directory.readUInt32BE(20);
  return directory.toString("utf8", identOffset, directory.indexOf(0, identOffset));
}

function blob(magic, body) {
  const out = Buffer.alloc(8 + body.length);
  out.writeUInt32BE(magic, 0);
  out.writeUInt32BE(out.length, 4);
  body.copy(out, 8);
  return out;
}

const align = (value, to) => Math.ceil(value / to) * to;
const sha256 = (data) => createHash("sha256").update(data).digest();
