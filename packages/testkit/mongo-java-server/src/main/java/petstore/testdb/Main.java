package petstore.testdb;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * Serves a MongoDB-compatible database on 127.0.0.1 for tests and local runs.
 *
 * <p>Usage: {@code java -jar petstore-testdb.jar [port] [h2-file]}; port 0 (or none) picks a
 * free one; without a file the data lives in memory, with one it is kept there across restarts.
 * Prints {@code listening on 127.0.0.1:<port>} once connections are accepted, and nothing else
 * on stdout. Stops, closing the server, on SIGTERM or SIGINT, and exits 0.
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

  public static void main(String[] args) throws InterruptedException {
    // Before the first logger is made: the library logs every connection at info.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    // It logs a stack trace for every connection a client drops (a killed service, a reset
    // socket) and then closes that connection: noise, not a database fault.
    System.setProperty(
        "org.slf4j.simpleLogger.log.de.bwaldvogel.mongo.wire.MongoExceptionHandler", "off");

    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    MongoBackend backend =
        args.length > 1
            ? new H2Backend(args[1]).version(REPORTED_VERSION)
            : new MemoryBackend().version(REPORTED_VERSION);
    MongoServer server = new MongoServer(backend);
    server.bind("127.0.0.1", port);

    CountDownLatch stopRequested = new CountDownLatch(1);
    for (String name : List.of("TERM", "INT")) {
      Signal.handle(new Signal(name), signal -> stopRequested.countDown());
    }
    System.out.println("listening on 127.0.0.1:" + server.getLocalAddress().getPort());
    System.out.flush();

    stopRequested.await();
    // Closes the connections and, for H2, writes the data out.
    server.shutdownNow();
    System.exit(0);
  }
}
