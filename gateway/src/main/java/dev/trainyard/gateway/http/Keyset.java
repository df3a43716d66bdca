package dev.trainyard.gateway.http;

import org.springframework.data.mongodb.core.query.Criteria;

/**
 * Keyset paging over a sort by one field, then {@code _id} ascending: the rows after the last one a
 * page returned, so a walk neither skips nor repeats rows written meanwhile.
 */
public final class Keyset {
  private Keyset() {}

  /**
   * {@code where}, narrowed to the rows after ({@code field}, {@code _id}) = ({@code value}, {@code
   * id}); {@code descending} when the listing sorts {@code field} newest first.
   */
  public static Criteria after(
      Criteria where, String field, boolean descending, Object value, String id) {
    Criteria beyond =
        descending ? Criteria.where(field).lt(value) : Criteria.where(field).gt(value);
    return new Criteria()
        .andOperator(
            where,
            new Criteria().orOperator(beyond, Criteria.where(field).is(value).and("_id").gt(id)));
  }
}
