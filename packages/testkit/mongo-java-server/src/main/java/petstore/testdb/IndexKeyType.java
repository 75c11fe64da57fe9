package petstore.testdb;

import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.bson.Document;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * The keys of a unique index, stored as BSON and ordered by their values. The library's default
 * type wrote each key with Java serialization and compared two keys by serializing both, on
 * every lookup. Two keys compare as equal exactly when they are equal (their values are normalised
 * by the library: numbers as doubles, absent as null).
 */
final class IndexKeyType extends BasicDataType<KeyValue> {
  @Override
  public KeyValue[] createStorage(int size) {
    return new KeyValue[size];
  }

  @Override
  public int getMemory(KeyValue key) {
    return 64 * key.size();
  }

  @Override
  public void write(WriteBuffer buffer, KeyValue key) {
    buffer.put(bson(key));
  }

  @Override
  public KeyValue read(ByteBuffer buffer) {
    return new KeyValue(Bson.decode(buffer).values());
  }

  @Override
  public int compare(KeyValue a, KeyValue b) {
    return compareInOrder(a, b);
  }

  private static int compareValues(Object a, Object b) {
    if (a == b) return 0;
    if (a == null || b == null) return a == null ? -1 : 1;
    int kind = kind(a).compareTo(kind(b));
    if (kind != 0) return kind;
    if (a instanceof Map<?, ?> x) return compareInOrder(entries(x), entries((Map<?, ?>) b));
    if (a instanceof List<?> x) return compareInOrder(x, (List<?>) b);
    if (a instanceof Comparable<?>) {
      @SuppressWarnings("unchecked")
      int order = ((Comparable<Object>) a).compareTo(b);
      if (order != 0 || a.equals(b)) return order;
    }
    // Values of other kinds (patterns, timestamps, decimals) are told apart by their BSON.
    return Arrays.compareUnsigned(bson(new KeyValue(a)), bson(new KeyValue(b)));
  }

  /** Lists and documents of any class compare among their own kind, as they are equal so. */
  private static String kind(Object value) {
    if (value instanceof Map) return "document";
    if (value instanceof List) return "list";
    return value.getClass().getName();
  }

  private static List<Object> entries(Map<?, ?> document) {
    List<Object> entries = new ArrayList<>(2 * document.size());
    document.forEach((name, value) -> {
      entries.add(name);
      entries.add(value);
    });
    return entries;
  }

  private static int compareInOrder(Iterable<?> a, Iterable<?> b) {
    Iterator<?> x = a.iterator();
    Iterator<?> y = b.iterator();
    while (x.hasNext() && y.hasNext()) {
      int order = compareValues(x.next(), y.next());
      if (order != 0) return order;
    }
    return Boolean.compare(x.hasNext(), y.hasNext());
  }

  /** The key's values as the BSON document {"0": first, "1": second, …}. */
  private static byte[] bson(KeyValue key) {
    Document values = new Document();
    int position = 0;
    for (Object value : key) values.put(String.valueOf(position++), value);
    return Bson.encode(values);
  }
}
