package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.bson.Document;
import java.nio.ByteBuffer;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * The stored documents of a collection, as BSON. The H2 backend's default writes each one with Java
 * serialization, a new object stream per document, several to tens of times the CPU of BSON and
 * more bytes (ADR 0020), paid again for every document of a page each time a write changes it.
 */
final class DocumentType extends BasicDataType<Document> {
  /**
   * A first guess at a document's size in memory, H2's own, corrected by what is read and written.
   */
  private static final int FIRST_ESTIMATE = 10_000;

  /** A document's size in the heap per byte of its BSON: a rough guess, not measured. */
  private static final int HEAP_PER_BSON_BYTE = 2;

  private volatile int averageSize = FIRST_ESTIMATE;

  /**
   * The running average of the documents' size in memory: what MVStore splits pages and budgets its
   * cache by.
   */
  @Override
  public int getMemory(Document document) {
    return averageSize;
  }

  @Override
  public void write(WriteBuffer out, Document document) {
    int start = out.position();
    BsonValues.write(out, document);
    seen(out.position() - start);
  }

  @Override
  public Document read(ByteBuffer in) {
    int start = in.position();
    Document document = BsonValues.read(in);
    seen(in.position() - start);
    return document;
  }

  private void seen(int bsonBytes) {
    averageSize = (HEAP_PER_BSON_BYTE * bsonBytes + 15 * averageSize) / 16;
  }

  @Override
  public Document[] createStorage(int size) {
    return new Document[size];
  }
}
