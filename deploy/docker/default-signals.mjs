// Loaded before the service (`node --import`). In a container node is PID 1, which the kernel
// gives no default action for SIGTERM and SIGINT: a signal arriving while no handler is installed
// (the service connecting to its database before its graceful shutdown is set up, or a second
// signal once that shutdown has begun) would be ignored until Docker or the kubelet kills it.
// This ends the process as the default action would, whenever it is the only handler.
import { constants } from 'node:os';

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (process.listenerCount(signal) === 1)
      process.exit(128 + constants.signals[signal]);
  });
}
