package petstore.testdb;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.backend.h2.H2UniqueIndex;
import de.bwaldvogel.mongo.bson.Document;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * An H2 database whose collections are {@link IndexedCollection}s, on the library's own maps, with
 * documents stored as BSON ({@link BsonDocumentType}) and unique indexes keyed by {@link
 * IndexKeyType}.
 */
final class IndexedDatabase extends H2Database {
  // The library's constructor opens the existing collections before a field of this class could
  // hold the store, so the store is read from the library's own field.
  private static final Field STORE = accessible(() -> H2Database.class.getDeclaredField("mvStore"));
  private static final Constructor<H2UniqueIndex> UNIQUE_INDEX =
      accessible(
          () ->
              H2UniqueIndex.class.getDeclaredConstructor(
                  MVMap.class, String.class, List.class, boolean.class));

  IndexedDatabase(String databaseName, MVStore store, CursorRegistry cursorRegistry) {
    super(databaseName, store, cursorRegistry);
  }

  @Override
  protected MongoCollection<Object> openOrCreateCollection(
      String collectionName, CollectionOptions options) {
    MVStore store = store();
    String name = getFullCollectionNamespace(collectionName);
    // The library's map names, so that files written before stay readable.
    MVMap<Object, Document> data =
        store.openMap(
            "databases." + name,
            new MVMap.Builder<Object, Document>().valueType(new BsonDocumentType()));
    MVMap<String, Object> meta = store.openMap("meta." + name);
    return new IndexedCollection(this, collectionName, options, data, meta, cursorRegistry);
  }

  /**
   * The library's index on a map of its own name: keys ordered by {@link IndexKeyType} cannot share
   * a map with keys the library ordered by their serialized bytes. A file written before has its
   * old map dropped, and the library fills the new, empty one from the collection's documents.
   */
  @Override
  protected Index<Object> openOrCreateUniqueIndex(
      String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
    MVStore store = store();
    String written = getFullCollectionNamespace(collectionName) + "._index_" + indexName;
    if (store.hasMap(written)) store.removeMap(written);
    MVMap<KeyValue, Object> map =
        store.openMap(
            indexMapName(collectionName, indexName),
            new MVMap.Builder<KeyValue, Object>().keyType(new IndexKeyType()));
    try {
      return UNIQUE_INDEX.newInstance(map, indexName, keys, sparse);
    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected void dropIndex(MongoCollection<Object> collection, String indexName) {
    super.dropIndex(collection, indexName);
    store().removeMap(indexMapName(collection.getCollectionName(), indexName));
  }

  private String indexMapName(String collectionName, String indexName) {
    return getFullCollectionNamespace(collectionName) + "._unique_" + indexName;
  }

  private MVStore store() {
    try {
      return (MVStore) STORE.get(this);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private interface Reflected<T> {
    T get() throws ReflectiveOperationException;
  }

  private static <T extends java.lang.reflect.AccessibleObject> T accessible(Reflected<T> member) {
    try {
      T reflected = member.get();
      reflected.setAccessible(true);
      return reflected;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("this version of mongo-java-server differs from the pom's", e);
    }
  }
}
