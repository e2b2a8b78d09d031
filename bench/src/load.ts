import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

export interface LoadOptions {
  url: string;
  apiKey: string;
  connections: number;
  durationSeconds: number;
  /** Requests per second across all connections; unlimited when absent. */
  overallRate?: number;
  method: "GET" | "PATCH";
  /** Path and body of the n-th request. */
  next(n: number): { path: string; body?: string };
}

/** Drives the gateway with autocannon and returns throughput and latency. */
export function load(options: LoadOptions): Promise<LoadResult> {
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.durationSeconds,
        ...(options.overallRate ? { overallRate: options.overallRate } : {}),
        headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
        requests: [
          {
            method: options.method,
            setupRequest: (request: autocannon.Request) => {
              const { path, body } = options.next(n++);
              return { ...request, path, ...(body === undefined ? {} : { body }) };
            },
          },
        ],
      },
      (error: Error | null, result: autocannon.Result) => {
        if (error) return reject(error);
        resolve({
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.timeouts,
          non2xx: result.non2xx,
          total: result.requests.total,
        });
      },
    );
  });
}
