import { serveHttp, type ServedHttp } from '@petstore/testkit';

/** A span as OTLP/JSON carries it, with the name of the service that recorded it. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}

interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: Omit<ReceivedSpan, 'service'>[] }[];
  }[];
}

/** A loopback OTLP/HTTP traces endpoint (`POST /v1/traces`, JSON) that keeps what it receives. */
export async function startOtlpReceiver(): Promise<
  ServedHttp & { spans: ReceivedSpan[] }
> {
  const spans: ReceivedSpan[] = [];
  const served = await serveHttp((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (
        req.url === '/v1/traces' &&
        /json/.test(req.headers['content-type'] ?? '')
      ) {
        const body = JSON.parse(
          Buffer.concat(chunks).toString('utf8'),
        ) as OtlpTraces;
        for (const resource of body.resourceSpans ?? []) {
          const service =
            resource.resource?.attributes?.find(
              ({ key }) => key === 'service.name',
            )?.value.stringValue ?? '';
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? [])
              spans.push({ ...span, service });
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  return Object.assign(served, { spans });
}
