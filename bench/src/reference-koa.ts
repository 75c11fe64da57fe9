import { deprecationHeaders } from '@petstore/contract';
import Koa from 'koa';
import { MongoClient } from 'mongodb';
import { serve } from './serve.js';

// RK, the least a pet read can cost in a Koa service: R1's `findOne` in Koa's one middleware,
// answering with the headers API.md asks of `GET /v1/pets/{petId}` (its request id, and its
// deprecation's three) and nothing else the services do: no validation, logging or errors.
// `node dist/reference-koa.js <mongodb uri> <database>`.
const [uri = '', database = 'petstore_pets'] = process.argv.slice(2);

const client = await new MongoClient(uri).connect();
const pets = client
  .db(database)
  .collection<{ _id: number; name: string; categoryId: number; status: string }>('pets');
const policy = {
  deprecatedAt: new Date('2026-01-01T00:00:00Z'),
  sunsetAt: new Date('2027-07-01T00:00:00Z'),
  documentation: 'http://127.0.0.1/docs#getPet',
};

const app = new Koa();
app.use(async (ctx) => {
  const document = await pets.findOne({ _id: Number(ctx.path.split('/').at(-1)) });
  if (!document) {
    ctx.status = 404;
    return;
  }
  const { _id: id, name, categoryId, status } = document;
  ctx.set('X-Request-Id', 'bench');
  ctx.set(deprecationHeaders(policy, `/v2/pets/${id}`));
  ctx.body = { id, name, categoryId, status };
});

const handle = app.callback();
serve(
  (req, res) => void handle(req, res),
  () => client.close(),
);
