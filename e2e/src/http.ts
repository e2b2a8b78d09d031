/** A tiny JSON client for black-box tests: status, parsed body and headers of one request. */
export interface Response<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export function client(baseUrl: string, apiKey: string) {
  async function send<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response<T>> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : null) as T,
      headers: response.headers,
    };
  }
  return {
    get: <T = unknown>(path: string, headers?: Record<string, string>) =>
      send<T>("GET", path, undefined, headers),
    post: <T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) =>
      send<T>("POST", path, body, headers),
    patch: <T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) =>
      send<T>("PATCH", path, body, headers),
    delete: <T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) =>
      send<T>("DELETE", path, body, headers),
    send,
  };
}
export type Client = ReturnType<typeof client>;
