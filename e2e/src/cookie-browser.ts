/** One answer as a browser sees it before following it. */
export interface Visit {
  status: number;
  /** Where a redirect points, resolved against the page's address. */
  location: URL | undefined;
  body: string;
}

/**
 * What a browser does that single sign-on relies on, in plain HTTP: it keeps each site's cookies
 * (by host; paths and expiry beyond `Max-Age=0` do not matter to these tests) and sends them back.
 * Redirects are followed by the caller, one at a time, so that a test can stop or tamper anywhere.
 */
export class CookieBrowser {
  readonly cookies = new Map<string, Map<string, string>>();

  async get(url: string | URL): Promise<Visit> {
    return this.#visit(new URL(url), { method: "GET" });
  }

  async postForm(url: string | URL, fields: Record<string, string>): Promise<Visit> {
    return this.#visit(new URL(url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  cookie(host: string, name: string): string | undefined {
    return this.cookies.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string): void {
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    jar.set(name, value);
    this.cookies.set(host, jar);
  }

  async #visit(url: URL, init: RequestInit): Promise<Visit> {
    const jar = this.cookies.get(url.host) ?? new Map<string, string>();
    this.cookies.set(url.host, jar);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const headers = new Headers(init.headers);
    if (cookie) headers.set("cookie", cookie);
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const removed = attributes.some((attribute) => {
        const [key = "", value = ""] = attribute.trim().split("=");
        if (key.toLowerCase() === "max-age") return Number(value) <= 0;
        return key.toLowerCase() === "expires" && Date.parse(value) < Date.now();
      });
      if (removed) jar.delete(name);
      else jar.set(name, pair.slice(at + 1).trim());
    }
    const location = response.headers.get("location");
    return {
      status: response.status,
      location: location === null ? undefined : new URL(location, url),
      body: await response.text(),
    };
  }
}
