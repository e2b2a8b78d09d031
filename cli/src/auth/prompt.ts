import { usageError } from "../errors";

/** Reads a line from the terminal without echoing it. */
export function promptSecret(question: string): Promise<string> {
  const { stdin, stderr } = process;
  // Echo goes off before the question is shown, so that nothing typed after it can be echoed.
  stdin.setRawMode?.(true);
  stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: Error) => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off("data", onData);
      stderr.write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString("utf8")) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(usageError("interrupted; nothing was stored"));
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else if (char >= " ") value += char;
      }
    };
    stdin.resume();
    stdin.on("data", onData);
  });
}
