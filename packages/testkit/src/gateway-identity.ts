/** The internal token of services under test: the one value every test uses (≥ 32 characters). */
export const testInternalToken = 'internal-token-for-tests-0123456789abcdef';

/** An account as the gateway vouches for it. */
export interface Account {
  accountId: string;
  role: 'admin' | 'customer';
}

/** The accounts tests act as. */
export const accounts = {
  admin: { accountId: 'acct_admin1', role: 'admin' },
  jane: { accountId: 'acct_jane1', role: 'customer' },
  john: { accountId: 'acct_john1', role: 'customer' },
} as const satisfies Record<string, Account>;

/** Who a request comes from: an account, another service (token only), or nobody (no token). */
export type Who = Account | 'service' | 'nobody';

/**
 * The headers the gateway sends a service for `who`. The names are spelled out here (they are
 * service-kit's `internalHeaders`) because service-kit's own tests use this package.
 */
export function gatewayHeaders(
  who: Who,
  internalToken: string = testInternalToken,
): Record<string, string> {
  if (who === 'nobody') return {};
  if (who === 'service') return { 'x-internal-token': internalToken };
  return {
    'x-internal-token': internalToken,
    'x-account-id': who.accountId,
    'x-account-role': who.role,
  };
}
