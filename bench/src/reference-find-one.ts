import type { IncomingMessage, ServerResponse } from 'node:http';
import { connectMongo, contextFrom, inSpan, SpanKind, startTracing } from '@petstore/service-kit';
import { MongoClient } from 'mongodb';
import { serve } from './serve.js';

// R1, the least a pet read can cost: `node:http` and the official driver's `findOne`, on the
// pets service's database with the driver's default pool, as the pets service has it.
// `node dist/reference-find-one.js <mongodb uri> <database>`. RT is the same server started with
// `traced` after them and `OTEL_EXPORTER_OTLP_ENDPOINT` set: every request traced as the services
// trace them, a span for the request and one for its database command, exported.
const [uri = '', database = 'petstore_pets', mode = ''] = process.argv.slice(2);

const stopTracing = mode === 'traced' ? await startTracing('RT') : undefined;
if (mode === 'traced' && !stopTracing) {
  throw new Error('[bench] RT needs OTEL_EXPORTER_OTLP_ENDPOINT set to trace its requests');
}
const client = stopTracing
  ? await connectMongo(uri, { appName: 'RT' })
  : await new MongoClient(uri).connect();
const pets = client
  .db(database)
  .collection<{ _id: number; name: string; categoryId: number; status: string }>('pets');

function read(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const petId = Number(req.url?.split('/').at(-1));
  return pets.findOne({ _id: petId }).then(
    (document) => {
      if (!document) {
        res.writeHead(404).end();
        return;
      }
      const { _id: id, name, categoryId, status } = document;
      const body = JSON.stringify({ id, name, categoryId, status });
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    },
    () => void res.writeHead(500).end(),
  );
}

function traced(req: IncomingMessage, res: ServerResponse): void {
  const span = { kind: SpanKind.SERVER, parent: contextFrom(req.headers) };
  void inSpan('GET /v1/pets/:petId', span, () => read(req, res));
}

serve(stopTracing ? traced : (req, res) => void read(req, res), async () => {
  await client.close();
  await stopTracing?.();
});
