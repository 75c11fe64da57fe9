import { ErrorSchema, type ErrorStatus } from './errors.js';

type ErrorResponses<TStatus extends ErrorStatus> = { [K in TStatus]: typeof ErrorSchema };

/** What any /v1 operation can meet on its way: the rate limit, a failing, unreachable or slow service. */
const THROUGH_THE_GATEWAY = [429, 500, 502, 503, 504] as const;
type GatewayStatus = (typeof THROUGH_THE_GATEWAY)[number];

/** `{ [status]: ErrorSchema }` for each status: the error responses of a route. */
export function errors<const TStatus extends ErrorStatus>(
  ...statuses: TStatus[]
): ErrorResponses<TStatus> {
  return Object.fromEntries(
    statuses.map((status) => [status, ErrorSchema]),
  ) as ErrorResponses<TStatus>;
}

/** The error responses of a /v1 operation: its own statuses and those of the way through the gateway. */
export function v1Errors<const TStatus extends ErrorStatus>(
  ...statuses: TStatus[]
): ErrorResponses<TStatus | GatewayStatus> {
  return errors<TStatus | GatewayStatus>(...statuses, ...THROUGH_THE_GATEWAY);
}
