/** The servers of `NATS_URL`: one address, or the addresses of a cluster's servers separated by commas. */
export function natsServersOf(value: string): string[] {
  return value
    .split(",")
    .map((server) => server.trim())
    .filter((server) => server.length > 0);
}
