import { setTimeout as sleep } from 'node:timers/promises';
import type { MongoClient, ServerHeartbeatStartedEvent } from 'mongodb';

/**
 * Reconnects the client when its server monitor hangs. The driver (seen with mongodb 6.22 and
 * 7.9) can start a heartbeat on its monitoring connection just as the server closes it, as a
 * database does when it restarts; that heartbeat then never succeeds nor fails, the server is
 * never checked again, and every operation fails server selection until the process restarts.
 *
 * A polling heartbeat is bounded by the connect timeout (one to connect, one for `hello`), so one
 * still running after `hungAfterMs` is that case: the client is then closed and connected again
 * (which starts a fresh monitor), retried every `retryMs` until it connects. Operations meanwhile
 * fail as when the database is down. Awaited heartbeats (MongoDB's streaming protocol) are left
 * alone: they last as long as the server wants. Closing the client stops the watch.
 */
export function reconnectWhenMonitorHangs(
  client: MongoClient,
  { hungAfterMs, retryMs }: { hungAfterMs: number; retryMs: number },
): void {
  let checkStartedAt: number | undefined;
  let reconnecting: Promise<void> | undefined;
  let stopped = false;

  client.on('serverHeartbeatStarted', (event: ServerHeartbeatStartedEvent) => {
    checkStartedAt = event.awaited ? undefined : Date.now();
  });
  const checkEnded = () => {
    checkStartedAt = undefined;
  };
  client.on('serverHeartbeatSucceeded', checkEnded);
  client.on('serverHeartbeatFailed', checkEnded);

  const close = client.close.bind(client);
  const reconnect = async () => {
    while (!stopped) {
      try {
        await close();
        if (stopped) return;
        await client.connect();
        return;
      } catch {
        await sleep(retryMs);
      }
    }
  };
  const timer = setInterval(
    () => {
      if (reconnecting || checkStartedAt === undefined) return;
      if (Date.now() - checkStartedAt < hungAfterMs) return;
      checkStartedAt = undefined;
      reconnecting = reconnect().finally(() => {
        reconnecting = undefined;
      });
    },
    Math.min(hungAfterMs, retryMs),
  );
  timer.unref();

  // The owner's close ends the watch (and is never undone by a reconnect).
  client.close = async (...args: Parameters<MongoClient['close']>) => {
    stopped = true;
    clearInterval(timer);
    await reconnecting;
    await close(...args);
  };
}
