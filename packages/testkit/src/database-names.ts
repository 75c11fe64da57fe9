import { randomBytes } from 'node:crypto';

/** Hands out unique database names and remembers them, so a shared server can be cleaned up. */
export class DatabaseNames {
  readonly issued: string[] = [];

  next(prefix: string): string {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    this.issued.push(name);
    return name;
  }
}
