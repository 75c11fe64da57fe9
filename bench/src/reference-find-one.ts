import { MongoClient } from 'mongodb';
import { serve } from './serve.js';

// R1, the least a pet read can cost: `node:http` and the official driver's `findOne`, on the
// pets service's database with the driver's default pool, as the pets service has it.
// `node dist/reference-find-one.js <mongodb uri> <database>`.
const [uri = '', database = 'petstore_pets'] = process.argv.slice(2);

const client = await new MongoClient(uri).connect();
const pets = client
  .db(database)
  .collection<{ _id: number; name: string; categoryId: number; status: string }>('pets');

serve(
  (req, res) => {
    const petId = Number(req.url?.split('/').at(-1));
    pets.findOne({ _id: petId }).then(
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
      () => res.writeHead(500).end(),
    );
  },
  () => client.close(),
);
