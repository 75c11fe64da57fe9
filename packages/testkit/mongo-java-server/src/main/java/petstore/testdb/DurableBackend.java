package petstore.testdb;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import org.h2.mvstore.MVStore;

/**
 * The H2 backend, answering a write only once it is in the file: the library commits once a
 * second in the background, so a write it had acknowledged was lost when the process was
 * killed. A commit writes every change made so far, so writes that finish together share one.
 */
final class DurableBackend extends H2Backend {
  DurableBackend(MVStore store) {
    super(store);
  }

  @Override
  public Document handleMessage(MongoMessage message) {
    try {
      return super.handleMessage(message);
    } finally {
      // Also after a failed command: an unordered insert may have written part of its batch.
      MVStore store = getMvStore();
      if (store.getFileStore() != null && store.hasUnsavedChanges()) store.commit();
    }
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String databaseName) {
    // Called by the library's constructor too, so the store is the library's, not a field here.
    return new IndexedDatabase(databaseName, getMvStore(), getCursorRegistry());
  }
}
