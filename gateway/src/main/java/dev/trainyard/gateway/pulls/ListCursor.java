package dev.trainyard.gateway.pulls;

import dev.trainyard.common.token.SignedToken;

/**
 * A position in a listPullRequests walk: the queue version the walk reads (its snapshot) and the
 * last row returned, as a {@link SignedToken} bound to the queue and query.
 */
record ListCursor(long snapshot, String stateChangedAt, String prId) {

  String encode(byte[] secret, String scope) {
    return SignedToken.encode(this, secret, scope);
  }

  static ListCursor decode(String token, byte[] secret, String scope) {
    return SignedToken.decode(token, ListCursor.class, secret, scope, "cursor");
  }
}
