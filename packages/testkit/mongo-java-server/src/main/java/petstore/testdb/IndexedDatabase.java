package petstore.testdb;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import java.lang.reflect.Field;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/** An H2 database whose collections are {@link IndexedCollection}s, on the library's own maps. */
final class IndexedDatabase extends H2Database {
  // The library's constructor opens the existing collections before a field of this class could
  // hold the store, so the store is read from the library's own field.
  private static final Field STORE = storeField();

  IndexedDatabase(String databaseName, MVStore store, CursorRegistry cursorRegistry) {
    super(databaseName, store, cursorRegistry);
  }

  @Override
  protected MongoCollection<Object> openOrCreateCollection(
      String collectionName, CollectionOptions options) {
    MVStore store = store();
    String name = getFullCollectionNamespace(collectionName);
    // The library's map names, so that files written before stay readable.
    MVMap<Object, Document> data = store.openMap("databases." + name);
    MVMap<String, Object> meta = store.openMap("meta." + name);
    return new IndexedCollection(this, collectionName, options, data, meta, cursorRegistry);
  }

  private MVStore store() {
    try {
      return (MVStore) STORE.get(this);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Field storeField() {
    try {
      Field field = H2Database.class.getDeclaredField("mvStore");
      field.setAccessible(true);
      return field;
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException("this version of mongo-java-server has no H2Database.mvStore", e);
    }
  }
}
