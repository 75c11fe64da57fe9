import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type {
  CommandFailedEvent,
  CommandStartedEvent,
  CommandSucceededEvent,
  MongoClient,
} from 'mongodb';
import { dbOperationDuration, scrapeReads } from './metrics.js';

const tracer = trace.getTracer('petstore');

/** The collection a command names as the value of its first key (`{ find: 'pets', … }`). */
function collectionOf(event: CommandStartedEvent): string {
  const value: unknown = event.command[event.commandName];
  return typeof value === 'string' ? value : '';
}

/**
 * A span per database command (a child of the request or job that sent it) and its duration in
 * `db_client_operation_duration_seconds`, from the driver's command monitoring. The command's
 * contents are never recorded: only its name and collection.
 */
export function monitorMongoCommands(
  client: MongoClient,
  { spans, durations }: { spans: boolean; durations: boolean },
): void {
  const open = new Map<number, { span?: Span; collection: string }>();
  client.on('commandStarted', (event) => {
    // What a scrape reads is the metrics' own cost, not the service's work.
    if (scrapeReads.getStore()) return;
    const collection = collectionOf(event);
    const span = spans
      ? tracer.startSpan(`${event.commandName} ${collection}`.trim(), {
          kind: SpanKind.CLIENT,
          attributes: {
            'db.system.name': 'mongodb',
            'db.operation.name': event.commandName,
            'db.collection.name': collection,
            'db.namespace': event.databaseName,
          },
        })
      : undefined;
    open.set(event.requestId, { span, collection });
  });
  const finish = (event: CommandSucceededEvent | CommandFailedEvent, outcome: string) => {
    const started = open.get(event.requestId);
    open.delete(event.requestId);
    if (!started) return;
    if (outcome === 'error') started.span?.setStatus({ code: SpanStatusCode.ERROR });
    started.span?.end();
    if (durations) {
      dbOperationDuration.observe(
        {
          db_system_name: 'mongodb',
          db_operation_name: event.commandName,
          db_collection_name: started.collection,
          outcome,
        },
        event.duration / 1000,
      );
    }
  };
  client.on('commandSucceeded', (event) => finish(event, 'success'));
  client.on('commandFailed', (event) => finish(event, 'error'));
}
