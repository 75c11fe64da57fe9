import { createServer } from 'node:http';

// Scenario (a), the ceiling: node:http answering one fixed Pet, with nothing in between.
// Run as its own process (`node dist/bare-server.js`) so it does not share a thread with the
// load generator; prints `listening <port>` once it accepts connections, stops on SIGTERM.
const PET = JSON.stringify({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });

const server = createServer((_req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(PET),
  });
  res.end(PET);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('[bench] no TCP address');
  process.stdout.write(`listening ${address.port}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
