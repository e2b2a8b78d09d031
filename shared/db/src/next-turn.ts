/**
 * Lets the event loop serve what waits (requests, timers) before the caller goes on. The embedded
 * database runs its engine on this thread and answers without any I/O, in promise callbacks alone, so
 * a loop of its statements never lets the process serve anything else unless it yields: a long
 * import, statement after statement, held every request of the embedded platform (decision 0055).
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
