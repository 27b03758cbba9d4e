import pg from "pg";
import { OUTBOX_CHANNEL } from "./stores/outbox.js";

/** A connection listening for the outbox's notifications. */
export interface OutboxListener {
  close(): Promise<void>;
}

/**
 * Calls `onWritten` whenever a transaction that wrote outbox events commits on the PostgreSQL
 * database at `url`, in any process (`LISTEN`, on a connection of its own). A lost connection is
 * opened again after `retryMs`; `onWritten` is called once listening again, as events may have
 * been written meanwhile.
 */
export async function listenForOutbox(
  url: string,
  onWritten: () => void,
  retryMs = 1000,
): Promise<OutboxListener> {
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch(again);
    }, retryMs);
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", () => onWritten());
    next.on("error", () => {
      if (client === next) client = null;
      next.end().catch(() => undefined);
      again();
    });
    await next.connect();
    await next.query(`listen ${OUTBOX_CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    onWritten();
  };
  await connect();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end();
      client = null;
    },
  };
}
