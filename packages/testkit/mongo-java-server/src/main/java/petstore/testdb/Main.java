package petstore.testdb;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * Serves an in-memory MongoDB-compatible database on 127.0.0.1 for tests.
 *
 * <p>Usage: {@code java -jar petstore-testdb.jar [port]}; port 0 (or none) picks a free one.
 * Prints {@code listening on 127.0.0.1:<port>} once connections are accepted, and nothing else
 * on stdout. Stops, closing the server, on SIGTERM/SIGINT and when stdin reaches end of file, so
 * a parent that dies (closing its end of the pipe) takes the database down with it.
 */
public final class Main {
  /** What the production database is; the driver only reads it, the library serves the same. */
  private static final MongoVersion REPORTED_VERSION =
      new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
          return List.of(7, 0, 0);
        }

        @Override
        public int getWireVersion() {
          return 21;
        }
      };

  private Main() {}

  public static void main(String[] args) {
    // Before the first logger is made: the library logs every connection at info.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    // It logs a stack trace for every connection a client drops (a killed service, a reset
    // socket) and then closes that connection: noise, not a database fault.
    System.setProperty(
        "org.slf4j.simpleLogger.log.de.bwaldvogel.mongo.wire.MongoExceptionHandler", "off");

    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    MongoServer server = new MongoServer(new MemoryBackend().version(REPORTED_VERSION));
    server.bind("127.0.0.1", port);

    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stop =
        () -> {
          if (stopped.compareAndSet(false, true)) server.shutdownNow();
        };
    Runtime.getRuntime().addShutdownHook(new Thread(stop, "testdb-shutdown"));
    // A requested stop is a clean one: exit 0 rather than the JVM's 143 for SIGTERM.
    for (String name : List.of("TERM", "INT")) {
      Signal.handle(new Signal(name), signal -> System.exit(0));
    }

    System.out.println("listening on 127.0.0.1:" + server.getLocalAddress().getPort());
    System.out.flush();

    waitForEndOfInput(System.in);
    stop.run();
    System.exit(0);
  }

  private static void waitForEndOfInput(InputStream in) {
    byte[] buffer = new byte[256];
    try {
      while (in.read(buffer) != -1) {
        // Input is ignored; only its end matters.
      }
    } catch (IOException e) {
      // A broken stdin means the parent is gone too.
    }
  }
}
