import { serve } from './serve.js';

// Scenario (a), the ceiling: node:http answering one fixed Pet, with nothing in between.
const PET = JSON.stringify({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });

serve((_req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(PET),
  });
  res.end(PET);
});
