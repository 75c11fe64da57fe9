package petstore.testdb;

import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;

/** Documents as the BSON the store keeps, with the library's own codec. */
final class Bson {
  private Bson() {}

  static byte[] encode(Document document) {
    ByteBuf bson = Unpooled.buffer();
    try {
      BsonEncoder.encodeDocument(document, bson);
      return ByteBufUtil.getBytes(bson);
    } finally {
      bson.release();
    }
  }

  /** The document at the buffer's position; the buffer is left after it. */
  static Document decode(ByteBuffer buffer) {
    ByteBuf bson = Unpooled.wrappedBuffer(buffer.slice());
    Document document = BsonDecoder.decodeBson(bson);
    buffer.position(buffer.position() + bson.readerIndex());
    return document;
  }
}
