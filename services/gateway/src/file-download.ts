import { Readable } from "node:stream";
import { callSubjectWithBody, type RawInput } from "@svc/bus";
import {
  type CsvFormulaMode,
  DomainError,
  type ExportChunk,
  type ExportFormat,
  exportChunkSchema,
  type Operation,
  type RequestContext,
} from "@svc/contracts";
import type { FastifyReply } from "fastify";
import { admitOperationCall, type OperationCallDeps } from "./operation-call";
import { parquetFile } from "./parquet-file";

/**
 * The largest X-Svc-Columns the export sends. HTTP clients refuse a response whose headers pass
 * 16 KiB (Node's own, undici, most proxies at 8 KiB), and a dataset's 1,000 columns would make it
 * about 35 KiB; the CSV's header row names every column too, which is what an import reads.
 */
const MAX_COLUMNS_HEADER = 8 * 1024;

/**
 * Answers an operation that returns a file (a dataset export): asks its service for the file piece
 * by piece over the bus, each piece well under one bus message, and streams the pieces to the client
 * as they come (a Parquet file is written here from them, a row group at a time). The first piece
 * is asked for before anything is sent, so that an unknown dataset or version is an ordinary error
 * response; a failure later cuts the transfer short, which a client sees as an incomplete body
 * rather than a file that looks whole.
 */
export async function sendFile(
  deps: OperationCallDeps,
  op: Operation,
  context: RequestContext,
  raw: RawInput,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const input = await admitOperationCall(deps, op, context, raw);
  const params = input.params as { projectSlug: string; datasetSlug: string };
  const { format, version, csvFormulas } = input.query as {
    format: ExportFormat;
    version?: number;
    csvFormulas?: CsvFormulaMode;
  };
  const ask = async (request: {
    version?: number | undefined;
    after?: ExportChunk["after"];
    columns?: string[] | undefined;
    rowsHint?: number | undefined;
    datasetId?: string | undefined;
  }) => {
    const { data, body } = await callSubjectWithBody(
      deps.bus,
      op.subject,
      {
        context,
        input: {
          params,
          format,
          ...(format === "csv" && csvFormulas ? { csvFormulas } : {}),
          ...(request.version === undefined ? {} : { version: request.version }),
          ...(request.after ? { after: request.after } : {}),
          ...(request.columns ? { columns: request.columns } : {}),
          ...(request.rowsHint ? { rowsHint: request.rowsHint } : {}),
          ...(request.datasetId ? { datasetId: request.datasetId } : {}),
        },
      },
      { timeoutMs: deps.timeoutMs },
    );
    const parsed = exportChunkSchema.safeParse(data);
    if (!parsed.success || body === undefined)
      throw new DomainError("internal_error", "The export service sent a malformed piece");
    return { ...parsed.data, bytes: body };
  };

  const first = await ask({ version });
  const mediaType = op.file?.mediaTypes[format] ?? "application/octet-stream";
  reply
    .status(op.successStatus)
    .header("content-type", mediaType)
    .header("content-disposition", `attachment; filename="${params.datasetSlug}-v${first.version}.${format}"`)
    .header("x-svc-version", String(first.version))
    .header("cache-control", "no-store");
  const columnsHeader = first.columns ? asciiJson(first.columns) : undefined;
  if (columnsHeader !== undefined && columnsHeader.length <= MAX_COLUMNS_HEADER)
    reply.header("x-svc-columns", columnsHeader);

  // Every later piece writes the columns the first one headed, whatever happens to them meanwhile.
  const named = first.columns;
  const columns = first.headers
    ?.slice(1)
    .map((header) => (named && Object.hasOwn(named, header) ? (named[header] as string) : header));
  // The next piece is asked for as soon as one arrives, before that one is sent: the service reads
  // the next rows while this process writes the last ones out. One piece ahead, no more.
  const after = (piece: Pick<ExportChunk, "after" | "rows">) => {
    if (piece.after === null) return undefined;
    const next = ask({
      version: first.version,
      after: piece.after,
      columns,
      rowsHint: piece.rows,
      datasetId: first.datasetId,
    });
    next.catch(() => undefined); // A client that goes away leaves it unread.
    return next;
  };
  async function* pieces() {
    let next = after(first);
    yield first.bytes;
    while (next) {
      const piece = await next;
      next = after(piece);
      if (piece.bytes.length > 0) yield piece.bytes;
    }
  }
  const body = format === "parquet" ? parquetFile(first.headers ?? ["id"], texts(pieces())) : pieces();
  return reply.send(Readable.from(body, { objectMode: false }));
}

/** A piece ends at the end of a line, so each decodes on its own. */
async function* texts(pieces: AsyncIterable<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  for await (const piece of pieces) yield decoder.decode(piece);
}

/** JSON with every non-ASCII character escaped: a header value must be ASCII. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
