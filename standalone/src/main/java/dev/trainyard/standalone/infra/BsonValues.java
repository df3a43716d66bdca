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
  /** What a thread's scratch buffer starts at, and the most it keeps between documents. */
  private static final int SCRATCH_START = 16 * 1024;

  private static final int SCRATCH_KEPT = 1024 * 1024;

  /**
   * Where a thread encodes the documents it writes. A commit re-encodes every document of every
   * page it writes, and a buffer per document, grown by doubling from 256 bytes, made the store's
   * encoding about a seventh of the standalone's allocations in the submit benchmark.
   */
  private static final ThreadLocal<ByteBuf> SCRATCH =
      ThreadLocal.withInitial(() -> Unpooled.buffer(SCRATCH_START));

  private BsonValues() {}

  static void write(WriteBuffer out, Document document) {
    ByteBuf bson = SCRATCH.get().clear();
    try {
      BsonEncoder.encodeDocument(document, bson);
      out.put(bson.nioBuffer());
    } finally {
      if (bson.capacity() > SCRATCH_KEPT) {
        bson.release();
        SCRATCH.remove();
      }
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
