package petstore.testdb;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.bson.Document;
import java.util.Iterator;
import java.util.List;
import java.util.Spliterators;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * A collection that finds documents as MongoDB would for the queries the services send.
 *
 * <p>The library uses a unique index only when a filter names exactly that index's fields, so
 * {@code {_id: 7, complete: false}} read every document. Here a filter that names every field of a
 * unique index by value (or {@code $in}) starts from the index and checks the rest of the filter
 * on what it finds. And a query sorted by a numeric {@code _id} with a limit walks the documents in
 * {@code _id} order, from the cursor's bound, and stops at the limit, instead of sorting them all.
 */
final class IndexedCollection extends H2Collection {
  private final MVMap<Object, Document> data;

  IndexedCollection(
      MongoDatabase database,
      String collectionName,
      CollectionOptions options,
      MVMap<Object, Document> data,
      MVMap<String, Object> meta,
      CursorRegistry cursorRegistry) {
    super(database, collectionName, options, data, meta, cursorRegistry);
    this.data = data;
  }

  @Override
  protected QueryResult queryDocuments(
      Document query, Document orderBy, int skip, int limit, int batchSize, Document projection) {
    for (Index<Object> index : getIndexes()) {
      Document indexed = indexedPart(index, query);
      if (indexed != null && index.canHandle(indexed)) {
        return matchDocuments(
            query, index.getPositions(indexed), orderBy, skip, limit, batchSize, projection);
      }
    }
    Integer direction = idDirection(orderBy);
    if (direction != null && limit > 0 && numericIds()) {
      return matchDocumentsFromStream(
          query, inIdOrder(query, direction < 0), skip, limit, batchSize, null, projection);
    }
    return super.queryDocuments(query, orderBy, skip, limit, batchSize, projection);
  }

  /**
   * Copies of the documents found, never the stored ones. The library updates a document it found
   * in place, while another connection's commit may be writing that same object to the file: the
   * commit failed on it, closing the store, or wrote the document half-updated. A reply is encoded
   * from copies too, so no document changes while it is sent.
   */
  @Override
  protected QueryResult createQueryResult(List<Document> found, int batchSize) {
    return super.createQueryResult(
        found.stream().map(Document::cloneDeeply).collect(Collectors.toList()), batchSize);
  }

  /** The filter's conditions on the fields of a unique index, or null if it misses one. */
  private static Document indexedPart(Index<Object> index, Document query) {
    if (!index.isUnique()) return null;
    Document part = new Document();
    for (IndexKey key : index.getKeys()) {
      Object value = query.get(key.getKey());
      if (value == null && !query.containsKey(key.getKey())) return null;
      if (value instanceof Document condition
          && !(condition.size() == 1 && condition.containsKey("$in"))) {
        return null;
      }
      part.put(key.getKey(), value);
    }
    return part;
  }

  /** 1 or -1 when the query is sorted by `_id` alone, else null. */
  private static Integer idDirection(Document orderBy) {
    if (orderBy == null || orderBy.size() != 1 || !(orderBy.get("_id") instanceof Number n)) {
      return null;
    }
    return n.intValue();
  }

  /**
   * Whether every `_id` is an int or every one a long: the map orders keys by type first, so the
   * first and the last key telling the same type means all do, and then its order is MongoDB's.
   */
  private boolean numericIds() {
    if (data.isEmpty()) return false;
    Object first = data.firstKey();
    Object last = data.lastKey();
    return (first instanceof Integer || first instanceof Long) && first.getClass() == last.getClass();
  }

  /** The documents in `_id` order, from the bound the filter puts on `_id` in that direction. */
  private Stream<Document> inIdOrder(Document query, boolean descending) {
    Object from = null;
    if (query.get("_id") instanceof Document range) {
      Object bound = descending ? lowest(range, "$lt", "$lte") : lowest(range, "$gt", "$gte");
      if (bound != null && bound.getClass() == data.firstKey().getClass()) from = bound;
    }
    Cursor<Object, Document> cursor = data.cursor(from, null, descending);
    Iterator<Document> documents =
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            return cursor.hasNext();
          }

          @Override
          public Document next() {
            cursor.next();
            return cursor.getValue();
          }
        };
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(documents, 0), false);
  }

  private static Object lowest(Document range, String strict, String inclusive) {
    return range.containsKey(strict) ? range.get(strict) : range.get(inclusive);
  }
}
