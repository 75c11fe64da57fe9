import { clientOver } from '../client.js';
import { RequestSender, type ClientOptions } from '../request-sender.js';

/** A client whose retries record their delay instead of waiting it. */
export function testClient(baseUrl: string, options: ClientOptions = {}) {
  const delays: number[] = [];
  const sender = new RequestSender(
    { baseUrl, apiKey: 'psk_test', ...options },
    {
      sleep: (ms) => {
        delays.push(ms);
        return Promise.resolve();
      },
      random: () => 1,
    },
  );
  return { client: clientOver(sender), sender, delays };
}
