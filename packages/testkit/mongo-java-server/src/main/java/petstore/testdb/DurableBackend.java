package petstore.testdb;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStore.TxCounter;

/**
 * The H2 backend, answering a write only once it is in the file: the library commits once a
 * second in the background, so a write it had acknowledged was lost when the process was
 * killed. A commit writes every change made so far, so writes that finish together share one.
 *
 * <p>The space of chunks no version in use needs is written over at once, not 45 seconds later as
 * the library's default has it: that wait guards against disks that reorder writes on power loss,
 * which a killed process does not do, and it grew the file by tens of megabytes a second under
 * load, with every commit rewriting the list of those chunks. Each command registers the version
 * it reads, so no chunk it may still read is written over.
 */
final class DurableBackend extends H2Backend {
  /** Set once the server stops: a command failing from then on failed because of the stop. */
  private volatile boolean stopping;

  DurableBackend(MVStore store) {
    super(store);
    store.setRetentionTime(0);
  }

  @Override
  public void close() {
    stopping = true;
    super.close();
  }

  @Override
  public Document handleMessage(MongoMessage message) {
    MVStore store = getMvStore();
    try {
      TxCounter reading = store.registerVersionUsage();
      try {
        return super.handleMessage(message);
      } finally {
        store.deregisterVersionUsage(reading);
        // Also after a failed command: an unordered insert may have written part of its batch.
        if (store.getFileStore() != null && store.hasUnsavedChanges()) store.commit();
      }
    } catch (RuntimeException e) {
      // A command caught by the stop: what it wrote may not be in the file, so it fails, as
      // MongoDB fails commands while it shuts down, rather than with an internal error.
      if (stopping) {
        throw new MongoServerError(91, "ShutdownInProgress", "the database is shutting down");
      }
      if (store.isClosed()) {
        exitOnFault(store.getPanicException() != null ? store.getPanicException() : e);
      }
      throw e;
    }
  }

  /**
   * The store closes itself when it cannot write its file (a full disk, say), and would fail every
   * command from then on; the process exits instead, saying why, so that what runs it sees the
   * database stop. Every write it acknowledged is in the file.
   */
  private static void exitOnFault(Throwable fault) {
    Throwable cause = fault;
    while (cause.getCause() != null) cause = cause.getCause();
    System.err.println("the database cannot go on, its store failed: " + cause);
    fault.printStackTrace();
    Runtime.getRuntime().halt(1);
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String databaseName) {
    // Called by the library's constructor too, so the store is the library's, not a field here.
    return new IndexedDatabase(databaseName, getMvStore(), getCursorRegistry());
  }
}
