/** The headers the gateway sets on every request it forwards; clients' copies are removed. */
export const internalHeaders = {
  token: 'x-internal-token',
  accountId: 'x-account-id',
  role: 'x-account-role',
  requestId: 'x-request-id',
} as const;

export type Role = 'customer' | 'admin';

/** Who asked, as the gateway vouched for it. */
export interface Caller {
  accountId: string;
  role: Role;
}
