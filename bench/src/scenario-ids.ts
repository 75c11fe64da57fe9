/**
 * (a) the bare server; R1, R2 the reference scenarios, RK, RG and RT their floors in Koa (a
 * service, a gateway in front of one) and traced;
 * (b)–(e) the stack; (h), (i) the gateway with telemetry on; (j0), (j) orders before and after a
 * webhook whose receiver hangs. (g), the store as it grows, has results of its own.
 */
export type ScenarioId =
  'a' | 'R1' | 'R2' | 'RK' | 'RG' | 'RT' | 'b' | 'c' | 'd' | 'e' | 'h' | 'i' | 'j0' | 'j';

/** The database under a scenario: the embedded one, or the one `MONGODB_URI` names. */
export type Database = 'mongod' | 'MONGODB_URI';
