package dev.trainyard.worker.scm;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The host refused a call in a way the same call will meet again until a person changes something
 * (a permission the App lacks, a repository gone from the installation, a request it finds
 * invalid), as opposed to a failure a retry soon may not meet (a timeout, a 5xx, a rate limit). An
 * effect refused so is tried again only after the longest backoff, not every few seconds.
 */
public final class ScmRefused extends UncheckedIOException {
  public ScmRefused(String reason) {
    super(new IOException(reason));
  }
}
