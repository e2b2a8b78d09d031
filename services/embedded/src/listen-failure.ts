/**
 * The one-line explanation of why the server could not listen, for the causes a person fixes by
 * choosing another address; undefined for anything else (a bug, to be reported with its stack).
 */
export function listenFailure(error: unknown, address: { HOST: string; PORT: number }): string | undefined {
  const where = `${address.HOST}:${address.PORT}`;
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "EADDRINUSE":
      return `cannot listen on ${where}: something else is using it; stop it, or set PORT (or HOST) to another address`;
    case "EACCES":
      return `cannot listen on ${where}: not allowed to use that port; set PORT to one above 1023`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `cannot listen on ${where}: HOST is not an address of this machine; set HOST (e.g. 127.0.0.1)`;
    default:
      return undefined;
  }
}
