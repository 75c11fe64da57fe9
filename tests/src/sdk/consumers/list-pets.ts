/**
 * The smallest program worth bundling: it lists the pets and prints how many there are.
 * sdk.e2e.test.ts bundles it with esbuild to hold the package to a size budget, then runs it.
 */
import { createClient } from '@petstore/client';

async function main(): Promise<void> {
  const client = createClient({
    apiKey: process.env.PETSTORE_API_KEY ?? '',
    baseUrl: process.env.PETSTORE_BASE_URL,
  });
  let pets = 0;
  for await (const pet of client.pets.list()) if (pet.name) pets += 1;
  process.stdout.write(`${JSON.stringify({ pets })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
