package petstore.testdb;

import de.bwaldvogel.mongo.bson.Document;
import java.nio.ByteBuffer;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;
import org.h2.mvstore.type.ObjectDataType;

/**
 * Stores a document as its BSON. The library's default type writes documents with Java
 * serialization, class descriptions and all, each time a page of them is written, which was most
 * of the database's CPU under writes. Documents a file holds in that form still read.
 */
final class BsonDocumentType extends BasicDataType<Document> {
  /** A first byte the default type never writes. */
  private static final byte BSON = 127;

  private final ObjectDataType serialized = new ObjectDataType();
  /** Bytes a document takes, for the store's estimate of a page's memory. */
  private volatile int averageSize = 256;

  @Override
  public Document[] createStorage(int size) {
    return new Document[size];
  }

  @Override
  public int getMemory(Document document) {
    return averageSize;
  }

  @Override
  public void write(WriteBuffer buffer, Document document) {
    byte[] bson = Bson.encode(document);
    averageSize = (bson.length + 15 * averageSize) / 16;
    buffer.put(BSON).put(bson);
  }

  @Override
  public Document read(ByteBuffer buffer) {
    if (buffer.get(buffer.position()) != BSON) return (Document) serialized.read(buffer);
    buffer.get();
    return Bson.decode(buffer);
  }
}
