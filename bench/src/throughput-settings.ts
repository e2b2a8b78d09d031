/*
 * How the throughput benchmark runs: the length of its phases, its clients and the size of the big
 * dataset, each settable from the environment where a shorter or a longer run makes sense.
 */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
export const BIG_ROWS = Number(process.env.BENCH_BIG_ROWS ?? 1_000_000);
export const BIG_VERSIONS = Number(process.env.BENCH_BIG_VERSIONS ?? 100_000);
export const CLIENTS = 32;
/**
 * Each pair (or trio) of compared measurements runs in turns, ROUNDS times each for SECONDS / ROUNDS,
 * and is averaged: whatever the machine does meanwhile (autovacuum after a write phase, a checkpoint)
 * then weighs on both sides alike instead of on whichever ran second.
 */
export const ROUNDS = 3;
/** Whole seconds: wrk and pgbench take no fractions. */
export const ROUND_SECONDS = Math.max(1, Math.round(SECONDS / ROUNDS));
/** Each paced phase first runs this long at its rate, unmeasured (see `paced`). */
export const WARMUP_SECONDS = 5;
/** How many 200-row pages into the big dataset the deep list reads start. */
export const DEEP_PAGES = Number(process.env.BENCH_DEEP_PAGES ?? 1000);
