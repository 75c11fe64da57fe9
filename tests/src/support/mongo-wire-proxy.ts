import { once } from 'node:events';
import {
  connect,
  createServer,
  type AddressInfo,
  type Server,
  type Socket,
} from 'node:net';
import { BSON, type Document } from 'mongodb';

/** A command a client sent, as the proxy read it from an OP_MSG. */
export interface WireCommand {
  /** The command's name: the first key of its body (`find`, `findAndModify`, `insert`, …). */
  name: string;
  /** The database it names (`$db`). */
  database: string;
  /** The value of the first key: the collection, for commands on one. */
  collection: unknown;
  /** The body: section 0's document, as decoded. */
  body: Document;
}

/** What becomes of a command: sent on to the database, or dropped with its connection. */
export type Verdict = 'forward' | 'drop';

/** Looks at every command before it is sent on; synchronous, so nothing passes it meanwhile. */
export type CommandHook = (command: WireCommand) => Verdict;

/** The MongoDB wire protocol's opcode of OP_MSG, the message every modern command goes in. */
const OP_MSG = 2013;
/** OP_MSG's flag saying a CRC-32C checksum follows the sections. */
const CHECKSUM_PRESENT = 1;
const HEADER_BYTES = 16;

/**
 * The command an OP_MSG carries: its section of kind 0, one BSON document. Undefined for any
 * other message (the driver's first `hello` may still be an OP_QUERY), which passes unread.
 */
export function commandOf(message: Buffer): WireCommand | undefined {
  if (message.length < HEADER_BYTES + 5 || message.readInt32LE(12) !== OP_MSG)
    return undefined;
  const flags = message.readUInt32LE(HEADER_BYTES);
  const end = message.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
  let offset = HEADER_BYTES + 4;
  while (offset < end) {
    const kind = message.readUInt8(offset);
    offset += 1;
    const size = message.readInt32LE(offset);
    if (kind === 0) {
      const body = BSON.deserialize(message.subarray(offset, offset + size));
      const name = Object.keys(body)[0] ?? '';
      return { name, database: String(body.$db), collection: body[name], body };
    }
    // Kind 1, a document sequence: its size counts itself, its identifier and its documents.
    offset += size;
  }
  return undefined;
}

/**
 * A TCP proxy between MongoDB clients and one database, on a loopback port: it reads the
 * commands clients send (OP_MSG) and hands each to a hook before sending it on, which may drop
 * it, and its connection, instead. Answers come back untouched.
 */
export class MongoWireProxy implements AsyncDisposable {
  /** Every command sent on, in order, for tests that check what a process sent. */
  readonly forwarded: WireCommand[] = [];
  #hook: CommandHook = () => 'forward';
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  private constructor(
    server: Server,
    private readonly target: { host: string; port: number },
  ) {
    this.#server = server;
  }

  /** A proxy to the database at `uri` (`mongodb://host:port/…`, one host). */
  static async start(uri: string): Promise<MongoWireProxy> {
    const { hostname, port } = new URL(uri);
    const server = createServer();
    const proxy = new MongoWireProxy(server, {
      host: hostname,
      port: Number(port),
    });
    server.on('connection', (client) => {
      proxy.#accept(client);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return proxy;
  }

  /**
   * The connection string of the proxy, for the clients: straight to it, or a driver would learn
   * the replica set member's own address from it and go there instead.
   */
  get uri(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `mongodb://127.0.0.1:${port}/?directConnection=true`;
  }

  /** The hook every command goes through from now on. */
  intercept(hook: CommandHook): void {
    this.#hook = hook;
  }

  #accept(client: Socket): void {
    const upstream = connect(this.target);
    this.#sockets.add(client).add(upstream);
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.#sockets.delete(client);
      this.#sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    upstream.pipe(client);
    let pending = Buffer.alloc(0);
    let dropped = false;
    client.on('data', (chunk: Buffer) => {
      if (dropped) return;
      pending = Buffer.concat([pending, chunk]);
      // Whole messages only: each is read, judged, and sent on or dropped.
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const command = commandOf(message);
        if (command && this.#hook(command) === 'drop') {
          dropped = true;
          close();
          return;
        }
        if (command) this.forwarded.push(command);
        upstream.write(message);
      }
    });
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    await new Promise<void>((resolve) =>
      this.#server.close(() => {
        resolve();
      }),
    );
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
