package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.bson.Document;
import java.nio.ByteBuffer;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * The stored documents of a collection, as BSON. The H2 backend's default writes each one with Java
 * serialization, a new object stream per document: 20 to 50 times the CPU of BSON and twice the
 * bytes (bench/README.md), paid again for every document of a page each time a write changes it.
 */
final class DocumentType extends BasicDataType<Document> {
  /** A first guess at a document's size in memory, corrected by what is written. */
  private static final int FIRST_ESTIMATE = 1024;

  private volatile int averageSize = FIRST_ESTIMATE;

  @Override
  public int getMemory(Document document) {
    return averageSize;
  }

  @Override
  public void write(WriteBuffer out, Document document) {
    int start = out.position();
    BsonValues.write(out, document);
    averageSize = (out.position() - start + 15 * averageSize) / 16;
  }

  @Override
  public Document read(ByteBuffer in) {
    return BsonValues.read(in);
  }

  @Override
  public Document[] createStorage(int size) {
    return new Document[size];
  }
}
