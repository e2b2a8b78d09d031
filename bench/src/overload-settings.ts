import { settingsFromEnv } from "./measure";

/*
 * How the overload benchmark runs: the length of each phase, the load, the data and the targets, and
 * the platform's shedding settings when the command line sets them.
 */
export const PEAK_SECONDS = Number(process.env.BENCH_PEAK_SECONDS ?? 10);
export const OVERLOAD_SECONDS = Number(process.env.BENCH_OVERLOAD_SECONDS ?? 20);
export const CONTENDED_SECONDS = Number(process.env.BENCH_CONTENDED_SECONDS ?? 15);
/** Each paced phase first runs this long at its rate, unmeasured (see `paced`). */
export const WARMUP_SECONDS = 3;
export const OVERLOAD_FACTOR = 4;
/**
 * Connections of the open-loop generator under overload: as many as a second of the offered load
 * could hold, far more than the gateway takes at once (SVC_GATEWAY_MAX_IN_FLIGHT, 256 by default),
 * so that the gateway's limits are what refuses, not the generator's sockets: a connection is busy
 * only until the platform answers, so a request left waiting for one would hide the platform's time
 * in the generator's. One that still finds none free waits, which its send time shows.
 */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8192);
/**
 * All of them opened before the overload starts, a hundred at a time. Thousands of connections
 * opened at once overflow the gateway's listen backlog, and a connection caught in it waits for the
 * kernel to retry its handshake, after 1, 3, 7, 15 and 31 s: edits answered 200 twenty or thirty
 * seconds after they were sent, in bursts, in the first runs. A flood of new connections is a test of
 * its own; this one is of the waits of requests the platform has been sent.
 */
export const PRECONNECT = CONNECTIONS;
/** Closed-loop clients of the peak measurement, as in the throughput benchmark. */
export const PEAK_CLIENTS = 32;
export const DATASETS = 100;
export const ROWS = 10;
export const ACCEPTED_WITHIN_MS = 1_000;
export const REFUSED_WITHIN_MS = 50;
export const CONTENDED_P99_MS = 50;

// Settings of the shedding that can be tried from the command line: SVC_GATEWAY_MAX_QUEUE_MS=200 npm run bench -- overload.
export const gatewaySettings = settingsFromEnv(["SVC_GATEWAY_MAX_IN_FLIGHT", "SVC_GATEWAY_MAX_QUEUE_MS"]);
export const writerSettings = settingsFromEnv([
  "SVC_WRITER_MAX_QUEUE_MS",
  "SVC_WRITER_STALL_MS",
  "SVC_WRITER_MAX_TRANSACTIONS",
]);
