package petstore.testdb;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.h2.mvstore.MVStore;
import sun.misc.Signal;

/**
 * Serves a MongoDB-compatible database on 127.0.0.1 (or {@code LISTEN_HOST}, e.g. 0.0.0.0 in a
 * container) for tests and local runs.
 *
 * <p>Usage: {@code java -jar petstore-testdb.jar [port] [h2-file]}; port 0 (or none) picks a
 * free one; without a file the data lives in memory, with one it is kept there across restarts
 * and every write is in the file before it is acknowledged.
 * Prints {@code listening on <host>:<port>} once connections are accepted, and nothing else
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

  /** Pages kept decoded in memory: enough for the data of a local run, so reads seldom decode. */
  private static final int CACHE_MB = 512;

  /**
   * Documents in a page, at most. A commit writes every page it changed whole, so a write to one
   * document (an order's stock, an idempotency record at a random id) cost the encoding of the 48
   * the library's default allows; with 16, an insert at a random id costs about 40% less.
   */
  private static final int KEYS_PER_PAGE = 16;

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
    MVStore.Builder store = new MVStore.Builder().cacheSize(CACHE_MB).keysPerPage(KEYS_PER_PAGE);
    if (args.length > 1) store.fileName(args[1]);
    MongoServer server = new MongoServer(new DurableBackend(store.open()).version(REPORTED_VERSION));
    String host = System.getenv().getOrDefault("LISTEN_HOST", "127.0.0.1");
    server.bind(host, port);

    CountDownLatch stopRequested = new CountDownLatch(1);
    for (String name : List.of("TERM", "INT")) {
      Signal.handle(new Signal(name), signal -> stopRequested.countDown());
    }
    System.out.println("listening on " + host + ":" + server.getLocalAddress().getPort());
    System.out.flush();

    stopRequested.await();
    // Closes the connections and, for H2, writes the data out.
    server.shutdownNow();
    System.exit(0);
  }
}
