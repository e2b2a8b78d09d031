import { describe, expect, it } from "vitest";
import { decodeMessage, encodeCall, Reader, sessionBusPath, splitSignature, Writer } from "./dbus";

describe("D-Bus wire format", () => {
  it("splits a signature into complete types", () => {
    expect(splitSignature("sa{ss}(oayays)vao")).toEqual(["s", "a{ss}", "(oayays)", "v", "ao"]);
  });

  it("marshals with the alignment of the specification, and reads back what it wrote", () => {
    const writer = new Writer();
    writer.write("y", 7);
    writer.write("a{ss}", [["service", "svc"]]);
    writer.write("v", { signature: "ao", value: ["/a", "/b"] });
    const bytes = writer.toBuffer();
    // y at 0, padding to 4, the array's length at 4 (20: 4 + 7 + 1 for the key, 4 + 3 + 1 for the
    // value, no padding between), then its first entry at 8, aligned to 8.
    expect([...bytes.subarray(0, 8)]).toEqual([7, 0, 0, 0, 20, 0, 0, 0]);
    expect(bytes.readUInt32LE(8)).toBe("service".length);
    const reader = new Reader(bytes, 0, true);
    expect(reader.read("y")).toBe(7);
    expect(reader.read("a{ss}")).toEqual([["service", "svc"]]);
    expect(reader.read("v")).toEqual({ signature: "ao", value: ["/a", "/b"] });
    expect(reader.position).toBe(bytes.length);
  });

  it("frames a method call whose header and body decode again", () => {
    const call = encodeCall(
      {
        destination: "org.freedesktop.secrets",
        path: "/org/freedesktop/secrets",
        interface: "org.freedesktop.Secret.Service",
        member: "SearchItems",
        signature: "a{ss}",
        body: [[["service", "svc"]]],
      },
      3,
    );
    expect(call.subarray(0, 4).toString("latin1")).toBe("l\u0001\u0000\u0001");
    expect(call.readUInt32LE(8)).toBe(3);
    const decoded = decodeMessage(Buffer.concat([call, Buffer.from([1, 2])]));
    expect(decoded?.size).toBe(call.length);
    expect(decoded?.message.body).toEqual([[["service", "svc"]]]);
    expect(decodeMessage(call.subarray(0, call.length - 1))).toBeUndefined();
  });

  it("finds the session bus by path, by abstract name, or in XDG_RUNTIME_DIR", () => {
    expect(sessionBusPath({ DBUS_SESSION_BUS_ADDRESS: "unix:path=/tmp/dbus-x,guid=ab" })).toBe("/tmp/dbus-x");
    expect(sessionBusPath({ DBUS_SESSION_BUS_ADDRESS: "tcp:host=h;unix:abstract=/tmp/dbus%2dy" })).toBe(
      "\0/tmp/dbus-y",
    );
    expect(sessionBusPath({ XDG_RUNTIME_DIR: "/run/user/1000" })).toBe("/run/user/1000/bus");
    expect(sessionBusPath({})).toBeUndefined();
  });
});
