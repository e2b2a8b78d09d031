import { describe, expect, it } from "vitest";
import { isSecretField, redactBody, redactHeader, redactUrl } from "./redact";

describe("redaction", () => {
  it("hides credentials in headers and query parameters", () => {
    expect(redactHeader("Authorization", "Bearer svc_abc")).toBe("Bearer REDACTED");
    expect(redactHeader("cookie", "a=b")).toBe("REDACTED");
    expect(redactHeader("X-Api-Key", "k")).toBe("REDACTED");
    expect(redactHeader("accept", "application/json")).toBe("application/json");
    expect(redactUrl("http://h/v1?api_key=s&limit=2&token=t")).toBe(
      "http://h/v1?api_key=REDACTED&limit=2&token=REDACTED",
    );
  });
});

describe("redaction of bodies in the debug log", () => {
  it("knows the names of credential fields, whatever their case or separators", () => {
    for (const name of ["token", "apiKey", "api_key", "access_token", "refresh_token", "client_secret"]) {
      expect(isSecretField(name), name).toBe(true);
    }
    for (const name of ["idToken", "X-Session-Token", "password", "privateKey", "webhookSecret"]) {
      expect(isSecretField(name), name).toBe(true);
    }
    for (const name of ["maskedToken", "key", "name", "tokensTotal", "nextCursor", "input", "id"]) {
      expect(isSecretField(name), name).toBe(false);
    }
  });

  it("replaces the values of credential fields at any depth of a JSON body", () => {
    const body = JSON.stringify({
      organization: { name: "Acme" },
      apiKey: { id: "k1", maskedToken: "****abcd", token: "svc_live_secret" },
      items: [{ access_token: "at-1", refresh_token: "rt-1", expires_in: 3600 }],
      client_secret: "cs-1",
    });
    const redacted = redactBody(body);
    for (const secret of ["svc_live_secret", "at-1", "rt-1", "cs-1"]) expect(redacted).not.toContain(secret);
    expect(JSON.parse(redacted)).toEqual({
      organization: { name: "Acme" },
      apiKey: { id: "k1", maskedToken: "****abcd", token: "REDACTED" },
      items: [{ access_token: "REDACTED", refresh_token: "REDACTED", expires_in: 3600 }],
      client_secret: "REDACTED",
    });
  });

  it("shows a body without secrets exactly as it was", () => {
    const body = '{ "input": "hi",  "output": 1.0 }';
    expect(redactBody(body)).toBe(body);
    expect(redactBody("<html>Bad gateway</html>")).toBe("<html>Bad gateway</html>");
  });

  it("redacts form bodies and JSON that does not parse", () => {
    expect(redactBody("grant_type=refresh_token&refresh_token=rt-9&client_id=c")).toBe(
      "grant_type=refresh_token&refresh_token=REDACTED&client_id=c",
    );
    expect(redactBody('{"token": "svc_cut_short", "name": "x", "trunc')).toBe(
      '{"token": "REDACTED", "name": "x", "trunc',
    );
  });
});
