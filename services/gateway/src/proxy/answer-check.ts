import { ErrorSchema } from '@petstore/contract';

function isJsonType(contentType: string | undefined): boolean {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    mediaType === 'application/json' ||
    (mediaType.startsWith('application/') && mediaType.endsWith('+json'))
  );
}

/** Why a service's answer cannot be passed on to the client, or undefined when it can. */
export function unusableAnswer(
  method: string,
  status: number,
  contentType: string | undefined,
  body: Buffer,
): string | undefined {
  if (status === 401) return 'refused the gateway’s credentials';
  if (method === 'HEAD' || status === 204 || status === 304) return undefined;
  if (!isJsonType(contentType))
    return `answered ${status} with content type ${contentType ?? 'none'}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf-8'));
  } catch {
    return `answered ${status} with a body that is not JSON`;
  }
  if (status >= 400) {
    const error = ErrorSchema.safeParse(parsed);
    if (!error.success || error.data.status !== status) {
      return `answered ${status} with a body that is not an Error`;
    }
  }
  return undefined;
}
