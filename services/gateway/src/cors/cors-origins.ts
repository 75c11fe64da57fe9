import { unsetWhenEmpty } from '@petstore/service-kit';
import { z } from 'zod';

const message =
  'Expected comma-separated origins such as https://app.example.com (no path, no *)';

/** An origin as a browser sends it in `Origin`: scheme, host and a port other than the scheme's. */
function asOrigin(text: string): string | undefined {
  try {
    const { origin, href, protocol } = new URL(text);
    return href === `${origin}/` && /^https?:$/.test(protocol)
      ? origin
      : undefined;
  } catch {
    return undefined;
  }
}

/** `CORS_ORIGINS`: the browser origins allowed to call the API; none (no CORS) by default. */
export function envCorsOrigins() {
  return unsetWhenEmpty(
    z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .transform((entries, ctx) => {
        const origins = entries.map(asOrigin);
        if (origins.some((origin) => origin === undefined)) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message });
          return z.NEVER;
        }
        return origins as string[];
      }),
  );
}
