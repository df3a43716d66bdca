package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.h2.mvstore.WriteBuffer;

/**
 * Writes a document into a store page as BSON and reads it back, with the encoder and decoder the
 * store's wire protocol uses, so every value a client can send survives the round trip.
 */
final class BsonValues {
  private BsonValues() {}

  static void write(WriteBuffer out, Document document) {
    ByteBuf bson = Unpooled.buffer();
    try {
      BsonEncoder.encodeDocument(document, bson);
      out.put(bson.nioBuffer());
    } finally {
      bson.release();
    }
  }

  /**
   * Reads the document at the buffer's position (BSON starts with its length) and moves past it.
   */
  static Document read(ByteBuffer in) {
    int length = Integer.reverseBytes(in.getInt(in.position()));
    ByteBuffer bson = in.slice();
    bson.limit(length);
    in.position(in.position() + length);
    return BsonDecoder.decodeBson(Unpooled.wrappedBuffer(bson));
  }
}
