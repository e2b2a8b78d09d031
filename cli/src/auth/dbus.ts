import { connect, type Socket } from "node:net";

/**
 * A minimal client of the D-Bus session bus: enough to call a method and read its answer, for the
 * Secret Service's item attributes, which the keyring addon cannot set. Secrets never pass through
 * it (the addon reads and writes them over its encrypted session).
 *
 * Values follow the D-Bus signature: strings for `s`, `o` and `g`, numbers for `y`, `u` and `i`,
 * booleans for `b`, arrays for `a…` (a dict entry `{kv}` being a `[key, value]` pair), arrays for
 * structs, and `{ signature, value }` for a variant.
 */
export interface Variant {
  signature: string;
  value: unknown;
}

export interface Call {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

/** An error the bus or a service answered with, such as `org.freedesktop.DBus.Error.ServiceUnknown`. */
export class DBusError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
  ) {
    super(`${errorName}: ${message}`);
    this.name = "DBusError";
  }
}

const ALIGNMENT: Record<string, number> = {
  y: 1,
  b: 4,
  n: 2,
  q: 2,
  i: 4,
  u: 4,
  x: 8,
  t: 8,
  d: 8,
  s: 4,
  o: 4,
  g: 1,
  v: 1,
  a: 4,
  "(": 8,
  "{": 8,
};

const alignmentOf = (type: string): number => {
  const alignment = ALIGNMENT[type[0] ?? ""];
  if (alignment === undefined) throw new Error(`unsupported D-Bus type ${type}`);
  return alignment;
};

/** The end of the complete type that starts at `start` in a signature. */
function typeEnd(signature: string, start: number): number {
  const first = signature[start];
  if (first === undefined) throw new Error(`truncated D-Bus signature ${signature}`);
  if (first === "a") return typeEnd(signature, start + 1);
  if (first === "(" || first === "{") {
    const close = first === "(" ? ")" : "}";
    let index = start + 1;
    while (signature[index] !== close) index = typeEnd(signature, index);
    return index + 1;
  }
  return start + 1;
}

/** The complete types of a signature, in order: `"sa{ss}"` → `["s", "a{ss}"]`. */
export function splitSignature(signature: string): string[] {
  const types: string[] = [];
  for (let index = 0; index < signature.length; ) {
    const end = typeEnd(signature, index);
    types.push(signature.slice(index, end));
    index = end;
  }
  return types;
}

/** Marshals values, little-endian, aligned from the start of what it writes. */
export class Writer {
  private bytes: number[] = [];

  get length(): number {
    return this.bytes.length;
  }

  toBuffer(): Buffer {
    return Buffer.from(this.bytes);
  }

  align(to: number): void {
    while (this.bytes.length % to !== 0) this.bytes.push(0);
  }

  private uint32(value: number): void {
    this.align(4);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32LE(value >>> 0);
    this.bytes.push(...buffer);
  }

  write(type: string, value: unknown): void {
    const kind = type[0];
    switch (kind) {
      case "y":
        this.bytes.push(Number(value) & 0xff);
        return;
      case "b":
        this.uint32(value ? 1 : 0);
        return;
      case "u":
      case "i":
        this.uint32(Number(value));
        return;
      case "s":
      case "o": {
        const text = Buffer.from(String(value), "utf8");
        this.uint32(text.length);
        this.bytes.push(...text, 0);
        return;
      }
      case "g": {
        const text = Buffer.from(String(value), "utf8");
        this.bytes.push(text.length, ...text, 0);
        return;
      }
      case "v": {
        const variant = value as Variant;
        this.write("g", variant.signature);
        this.write(variant.signature, variant.value);
        return;
      }
      case "a": {
        const element = type.slice(1);
        this.uint32(0);
        const lengthAt = this.bytes.length - 4;
        // The padding before the first element is not part of the array's length.
        this.align(alignmentOf(element));
        const start = this.bytes.length;
        for (const item of value as unknown[]) this.write(element, item);
        const length = Buffer.alloc(4);
        length.writeUInt32LE(this.bytes.length - start);
        this.bytes.splice(lengthAt, 4, ...length);
        return;
      }
      case "(":
      case "{": {
        this.align(8);
        const fields = splitSignature(type.slice(1, -1));
        const values = value as unknown[];
        for (const [index, field] of fields.entries()) this.write(field, values[index]);
        return;
      }
      default:
        throw new Error(`unsupported D-Bus type ${type}`);
    }
  }
}

/** Unmarshals values from a buffer, aligned from `base` (the start of the message). */
export class Reader {
  constructor(
    private readonly buffer: Buffer,
    private offset: number,
    private readonly little: boolean,
    private readonly base = 0,
  ) {}

  get position(): number {
    return this.offset;
  }

  align(to: number): void {
    const misalignment = (this.offset - this.base) % to;
    if (misalignment !== 0) this.offset += to - misalignment;
  }

  private uint32(): number {
    this.align(4);
    const value = this.little ? this.buffer.readUInt32LE(this.offset) : this.buffer.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  read(type: string): unknown {
    switch (type[0]) {
      case "y":
        return this.buffer.readUInt8(this.offset++);
      case "b":
        return this.uint32() !== 0;
      case "u":
        return this.uint32();
      case "i":
        return this.uint32() | 0;
      case "s":
      case "o": {
        const length = this.uint32();
        const text = this.buffer.toString("utf8", this.offset, this.offset + length);
        this.offset += length + 1;
        return text;
      }
      case "g": {
        const length = this.buffer.readUInt8(this.offset++);
        const text = this.buffer.toString("utf8", this.offset, this.offset + length);
        this.offset += length + 1;
        return text;
      }
      case "v": {
        const signature = this.read("g") as string;
        return { signature, value: this.read(signature) } satisfies Variant;
      }
      case "a": {
        const element = type.slice(1);
        const length = this.uint32();
        this.align(alignmentOf(element));
        const end = this.offset + length;
        const items: unknown[] = [];
        while (this.offset < end) items.push(this.read(element));
        return items;
      }
      case "(":
      case "{": {
        this.align(8);
        return splitSignature(type.slice(1, -1)).map((field) => this.read(field));
      }
      default:
        throw new Error(`unsupported D-Bus type ${type}`);
    }
  }
}

const MESSAGE = { call: 1, reply: 2, error: 3, signal: 4 } as const;
const FIELD = {
  path: 1,
  interface: 2,
  member: 3,
  errorName: 4,
  replySerial: 5,
  destination: 6,
  signature: 8,
} as const;

/** A method call as bytes on the wire. */
export function encodeCall(call: Call, serial: number): Buffer {
  const body = new Writer();
  const types = splitSignature(call.signature ?? "");
  for (const [index, type] of types.entries()) body.write(type, call.body?.[index]);
  const fields: [number, Variant][] = [
    [FIELD.path, { signature: "o", value: call.path }],
    [FIELD.interface, { signature: "s", value: call.interface }],
    [FIELD.member, { signature: "s", value: call.member }],
    [FIELD.destination, { signature: "s", value: call.destination }],
  ];
  if (call.signature) fields.push([FIELD.signature, { signature: "g", value: call.signature }]);
  const header = new Writer();
  for (const byte of ["l".charCodeAt(0), MESSAGE.call, 0, 1]) header.write("y", byte);
  header.write("u", body.length);
  header.write("u", serial);
  header.write("a(yv)", fields);
  header.align(8);
  return Buffer.concat([header.toBuffer(), body.toBuffer()]);
}

interface Message {
  type: number;
  replySerial: number | undefined;
  errorName: string | undefined;
  body: unknown[];
}

/** The first whole message in `buffer` and its size, or undefined while more bytes are needed. */
export function decodeMessage(buffer: Buffer): { message: Message; size: number } | undefined {
  if (buffer.length < 16) return undefined;
  const little = buffer[0] === "l".charCodeAt(0);
  const uint32 = (at: number) => (little ? buffer.readUInt32LE(at) : buffer.readUInt32BE(at));
  const fieldsLength = uint32(12);
  const bodyStart = 16 + fieldsLength + ((8 - (fieldsLength % 8)) % 8);
  const size = bodyStart + uint32(4);
  if (buffer.length < size) return undefined;
  const header = new Reader(buffer, 12, little);
  const fields = new Map(header.read("a(yv)") as [number, Variant][]);
  const signature = (fields.get(FIELD.signature)?.value as string | undefined) ?? "";
  const body = new Reader(buffer, bodyStart, little, bodyStart);
  return {
    message: {
      type: buffer[1] ?? 0,
      replySerial: fields.get(FIELD.replySerial)?.value as number | undefined,
      errorName: fields.get(FIELD.errorName)?.value as string | undefined,
      body: splitSignature(signature).map((type) => body.read(type)),
    },
    size,
  };
}

/**
 * Where the session bus listens: DBUS_SESSION_BUS_ADDRESS (its first `unix:` address, by path or
 * abstract name), else `$XDG_RUNTIME_DIR/bus`, as libdbus looks for it.
 */
export function sessionBusPath(env: NodeJS.ProcessEnv): string | undefined {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) return env.XDG_RUNTIME_DIR ? `${env.XDG_RUNTIME_DIR}/bus` : undefined;
  for (const entry of address.split(";")) {
    if (!entry.startsWith("unix:")) continue;
    const keys = new Map(
      entry
        .slice("unix:".length)
        .split(",")
        .map((pair) => {
          const at = pair.indexOf("=");
          return [pair.slice(0, at), decodeURIComponent(pair.slice(at + 1))] as const;
        }),
    );
    const path = keys.get("path");
    if (path) return path;
    const abstract = keys.get("abstract");
    if (abstract) return `\0${abstract}`;
  }
  return undefined;
}

/** A connection to the session bus, authenticated as this user, that has said Hello. */
export class SessionBus {
  private serial = 0;
  private received = Buffer.alloc(0);
  private readonly pending = new Map<
    number,
    { resolve(body: unknown[]): void; reject(error: Error): void }
  >();

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    const fail = (error: Error) => {
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("the session bus closed the connection")));
  }

  static async open(env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<SessionBus> {
    const path = sessionBusPath(env);
    if (!path) throw new Error("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)");
    const socket = connect({ path });
    signal.addEventListener("abort", () => socket.destroy(), { once: true });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    await authenticate(socket);
    const bus = new SessionBus(socket);
    await bus.call({
      destination: "org.freedesktop.DBus",
      path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus",
      member: "Hello",
    });
    return bus;
  }

  call(call: Call): Promise<unknown[]> {
    const serial = ++this.serial;
    return new Promise((resolve, reject) => {
      this.pending.set(serial, { resolve, reject });
      this.socket.write(encodeCall(call, serial));
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.received = Buffer.concat([this.received, chunk]);
    for (let decoded = decodeMessage(this.received); decoded; decoded = decodeMessage(this.received)) {
      this.received = this.received.subarray(decoded.size);
      const { message } = decoded;
      // Signals (NameAcquired after Hello) and calls to us need no answer here.
      if (message.type !== MESSAGE.reply && message.type !== MESSAGE.error) continue;
      const waiting = message.replySerial === undefined ? undefined : this.pending.get(message.replySerial);
      if (!waiting || message.replySerial === undefined) continue;
      this.pending.delete(message.replySerial);
      if (message.type === MESSAGE.reply) waiting.resolve(message.body);
      else waiting.reject(new DBusError(message.errorName ?? "unknown", String(message.body[0] ?? "")));
    }
  }
}

/** SASL EXTERNAL: the bus knows who we are from the socket; we name our user id. */
async function authenticate(socket: Socket): Promise<void> {
  const uid = process.getuid?.() ?? 0;
  const hexUid = Buffer.from(String(uid), "ascii").toString("hex");
  const answer = new Promise<string>((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("ascii");
      if (!text.includes("\r\n")) return;
      socket.off("data", onData);
      socket.off("error", reject);
      resolve(text.slice(0, text.indexOf("\r\n")));
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
  socket.write(`\0AUTH EXTERNAL ${hexUid}\r\n`);
  const line = await answer;
  if (!line.startsWith("OK ")) throw new Error(`the session bus refused us: ${line}`);
  socket.write("BEGIN\r\n");
}
